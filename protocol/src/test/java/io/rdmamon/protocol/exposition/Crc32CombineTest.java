package io.rdmamon.protocol.exposition;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Random;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class Crc32CombineTest {
    private static int crc(byte[] bytes, int from, int to) {
        CRC32 crc = new CRC32();
        crc.update(bytes, from, to - from);
        return (int) crc.getValue();
    }

    /** Against java.util.zip.CRC32 of the whole, split at every kind of place, the empty sides included. */
    @ParameterizedTest(name = "{0} bytes split at {1}")
    @CsvSource({"0, 0", "1, 0", "1, 1", "2, 1", "9, 4", "64, 63", "1000, 500", "1048576, 3", "1048576, 1048573",
            "1048577, 524288", "3000000, 1234567"})
    void combiningTwoPartsGivesTheCrcOfTheWhole(int length, int split) {
        byte[] bytes = new byte[length];
        new Random(length ^ split).nextBytes(bytes);
        assertEquals(crc(bytes, 0, length), Crc32Combine.combine(crc(bytes, 0, split), crc(bytes, split, length),
                length - split));
    }

    @Test
    void combiningManyPiecesInOrderGivesTheCrcOfTheWhole() {
        byte[] bytes = new byte[200_000];
        new Random(7).nextBytes(bytes);
        Random cuts = new Random(8);
        int crc = 0;
        for (int at = 0; at < bytes.length; ) {
            int end = Math.min(bytes.length, at + cuts.nextInt(5000));
            crc = Crc32Combine.combine(crc, crc(bytes, at, end), end - at);
            at = end;
        }
        assertEquals(crc(bytes, 0, bytes.length), crc);
    }

    @Test
    void aNegativeLengthIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Crc32Combine.combine(1, 2, -1));
    }
}
