// SPDX-License-Identifier: GPL-2.0
/*
 * A C++ workload for the viewer's test of long names: the demangled
 * names of churn<>() instances grow with the nesting of the standard
 * containers in their argument types (each std::map level spells its
 * key and value types several times), from a short one to thousands
 * of characters; main() runs them all, the longest the most.
 */
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

template <typename T> struct wrap {
	T v;
};

template <int N> struct nest {
	using type = wrap<std::map<std::string, typename nest<N - 1>::type>>;
};

template <> struct nest<0> {
	using type = std::vector<std::string>;
};

unsigned long sink;

template <typename T>
__attribute__((noinline)) void churn(const T *, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * i;
}

template <int N> __attribute__((noinline)) void level(unsigned long n)
{
	churn<typename nest<N>::type>(nullptr, n);
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], nullptr, 0) : 10;

	n *= 10000000;
	level<0>(n);
	level<1>(2 * n);
	level<3>(3 * n);
	return 0;
}
