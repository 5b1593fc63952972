// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include <stdlib.h>
#include "debug.h"
#include "symbol.h"
#include "tests.h"

/*
 * Names that are not C++ manglings stay as they are, whichever demangler
 * perf was built with: __cxa_demangle() would take "a" for the mangled
 * type "signed char".  A mangled name demangles to its function's name,
 * with or without its parameters, as the demangler gives them.
 */
static int test__demangle_cxx(struct test_suite *test __maybe_unused,
			      int subtest __maybe_unused)
{
	static const char * const plain[] = {
		"a", "b", "f", "i", "v", "St", "main", "Z", "_z4spinv",
	};
	int ret = TEST_OK;
	char *buf;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(plain); i++) {
		buf = dso__demangle_sym(/*dso=*/NULL, /*kmodule=*/0, plain[i]);
		if (buf) {
			pr_debug("FAILED: %s: %s != (null)\n", plain[i], buf);
			ret = TEST_FAIL;
		}
		free(buf);
	}
#if defined(HAVE_LIBBFD_SUPPORT) || defined(HAVE_CPLUS_DEMANGLE_SUPPORT) || \
	defined(HAVE_CXA_DEMANGLE_SUPPORT)
	buf = dso__demangle_sym(/*dso=*/NULL, /*kmodule=*/0, "_ZN2fg4spinEmi");
	if (!buf || strncmp(buf, "fg::spin", strlen("fg::spin"))) {
		pr_debug("FAILED: _ZN2fg4spinEmi: %s != fg::spin...\n", buf ?: "(null)");
		ret = TEST_FAIL;
	}
	free(buf);
#endif
	return ret;
}

DEFINE_SUITE("Demangle C++", demangle_cxx);
