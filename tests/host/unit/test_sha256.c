/* SHA-256 against the FIPS 180-2 example vectors, and incremental = one-shot. */
#include <criterion/criterion.h>
#include <cgwb/sha256.h>
#include <stdlib.h>
#include <string.h>

static void expect_hex(const void *data, size_t len, const char *hex)
{
	u8 d[SHA256_DIGEST_SIZE];
	char got[65];

	sha256(data, len, d);
	sha256_hex(d, got);
	cr_assert_str_eq(got, hex);
}

Test(sha256, empty)
{
	expect_hex("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

Test(sha256, abc)
{
	expect_hex("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

Test(sha256, two_blocks)
{
	const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";

	expect_hex(m, strlen(m), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

Test(sha256, million_a)
{
	char *m = malloc(1000000);

	memset(m, 'a', 1000000);
	expect_hex(m, 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	free(m);
}

/* Every split point around the padding boundaries gives the same digest. */
Test(sha256, incremental_equals_one_shot)
{
	u8 data[200], whole[32], part[32];

	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (u8)(i * 31 + 7);
	for (size_t len = 0; len <= sizeof(data); len += 7) {
		sha256(data, len, whole);
		for (size_t cut = 0; cut <= len; cut += 3) {
			struct sha256_state s;
			sha256_init(&s);
			sha256_update(&s, data, cut);
			sha256_update(&s, data + cut, len - cut);
			sha256_final(&s, part);
			cr_assert_arr_eq(whole, part, 32, "len %zu cut %zu", len, cut);
		}
	}
}
