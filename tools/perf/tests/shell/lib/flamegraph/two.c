// SPDX-License-Identifier: GPL-2.0
/* The other static function named spin: see main.c. */

static unsigned long spin(unsigned long n)
{
	unsigned long x = 7, i;

	for (i = 0; i < n; i++)
		x ^= (x << 3) + i;
	return x;
}

unsigned long (*spin_two)(unsigned long n) = spin;
