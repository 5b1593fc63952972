// SPDX-License-Identifier: GPL-2.0
/* One of two static functions named spin: see main.c. */

static unsigned long spin(unsigned long n)
{
	unsigned long x = 1, i;

	for (i = 0; i < n; i++)
		x += x / 3 + i;
	return x;
}

unsigned long (*spin_one)(unsigned long n) = spin;
