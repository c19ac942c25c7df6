package io.rdmamon.protocol.exposition;

/**
 * The CRC-32 (gzip's, {@link java.util.zip.CRC32}) of two byte sequences one after the other from the CRC-32 of
 * each and the length of the second, without reading the bytes again: zlib's {@code crc32_combine}, which Java does
 * not expose. CRC-32 is the remainder of a polynomial division over GF(2), so appending {@code len2} bytes to the
 * first sequence multiplies its CRC by x^(8·len2) modulo the CRC polynomial before the second CRC is added (xor).
 * The arithmetic is in the bit-reflected form gzip uses (x^0 is the top bit). Lets a gzip writer reuse deflated
 * pieces of an earlier body without reading their text to keep the trailer's CRC right.
 */
public final class Crc32Combine {
    /** The CRC-32 polynomial, reflected. */
    private static final int POLY = 0xEDB88320;
    /** x^(2^k) modulo the polynomial, k = 0..31 (x^(2^k) repeats with period dividing 2^32 - 1, so k wraps). */
    private static final int[] X_2_POW_K = new int[32];

    static {
        int p = 1 << 30; // x^1
        X_2_POW_K[0] = p;
        for (int k = 1; k < 32; k++) {
            p = multiplyModP(p, p);
            X_2_POW_K[k] = p;
        }
    }

    private Crc32Combine() {
    }

    /** The CRC-32 of A followed by B, given CRC-32(A), CRC-32(B) and B's length in bytes (≥ 0). */
    public static int combine(int crcA, int crcB, long lengthB) {
        if (lengthB < 0) {
            throw new IllegalArgumentException("negative length " + lengthB);
        }
        return multiplyModP(xPow8n(lengthB), crcA) ^ crcB;
    }

    /** a · b modulo the polynomial, both reflected; {@code a} non-zero. */
    private static int multiplyModP(int a, int b) {
        int product = 0;
        for (int m = 1 << 31; m != 0; m >>>= 1) {
            if ((a & m) != 0) {
                product ^= b;
                if ((a & (m - 1)) == 0) {
                    break;
                }
            }
            b = (b & 1) != 0 ? (b >>> 1) ^ POLY : b >>> 1;
        }
        return product;
    }

    /** x^(8·n) modulo the polynomial: the product of x^(2^k) over the bits k of 8·n. */
    private static int xPow8n(long n) {
        int p = 1 << 31; // x^0
        int k = 3; // 8·n: start at x^(2^3)
        while (n != 0) {
            if ((n & 1) != 0) {
                p = multiplyModP(X_2_POW_K[k & 31], p);
            }
            n >>>= 1;
            k++;
        }
        return p;
    }
}
