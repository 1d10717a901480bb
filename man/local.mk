# man/local.mk: man pages, generated from man/*.in at make time.
# Substituted: @VERSION@, @PACKAGE_BUGREPORT@, @DATE@ (from SOURCE_DATE_EPOCH
# when set, else today), @pkgdatadir@.

nodist_man_MANS = man/spate.1 man/spate-scenario.5
EXTRA_DIST += man/spate.1.in man/spate-scenario.5.in
CLEANFILES += $(nodist_man_MANS)

man_subst = date=`date -u -d "@$${SOURCE_DATE_EPOCH:-$$(date +%s)}" +%Y-%m-%d 2>/dev/null || date -u +%Y-%m-%d`; \
	$(MKDIR_P) $(@D) && \
	$(SED) -e 's|@VERSION[@]|$(VERSION)|g' \
	       -e 's|@PACKAGE_BUGREPORT[@]|$(PACKAGE_BUGREPORT)|g' \
	       -e "s|@DATE[@]|$$date|g" \
	       -e 's|@pkgdatadir[@]|$(pkgdatadir)|g' \
	       < $(srcdir)/$@.in > $@.tmp && mv -f $@.tmp $@

man/spate.1: $(srcdir)/man/spate.1.in Makefile
	$(AM_V_GEN)$(man_subst)
man/spate-scenario.5: $(srcdir)/man/spate-scenario.5.in Makefile
	$(AM_V_GEN)$(man_subst)
