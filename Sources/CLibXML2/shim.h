// libxml2 for HTML parsing. Its headers would pull in the system ICU, which clashes
// with the ICU that Foundation bundles; parse HTML from UTF-8 only, so hide ICU.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/tree.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
