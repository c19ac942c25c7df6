package io.rdmamon.collector.cluster;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BusCompressionTest {
    /** A fleet update's shape: rows of port arrays that repeat their field values node after node. */
    private static Buffer fleetUpdate(int nodes) {
        JsonArray rows = new JsonArray();
        for (int n = 0; n < nodes; n++) {
            JsonArray ports = new JsonArray();
            for (int p = 0; p < 8; p++) {
                ports.add(new JsonArray().add("mlx5_" + p).add(1).add("ACTIVE").add(4).add(true).add("roce")
                        .add(25_000_000_000L).add(n * 7919L % 1_000_003 * p).add(n * 104_729L % 999_983));
            }
            rows.add(new JsonObject().put("node", String.format("gpu-%04d", n)).put("up", true).put("ports", ports));
        }
        return new JsonObject().put("replica", "r1").put("full", true).put("rows", rows).toBuffer();
    }

    @Test
    void aFleetUpdateComesBackWholeAndTravelsInAFractionOfItsBytes() {
        Buffer plain = fleetUpdate(500);
        Buffer deflated = BusCompression.deflate(plain);
        assertEquals(plain, BusCompression.inflate(deflated, plain.length()));
        assertTrue(deflated.length() * 4 < plain.length(), deflated.length() + " of " + plain.length());
    }

    @Test
    void aPayloadThatExpandsPastTheBoundOrIsNoDeflateDataIsRefused() {
        Buffer plain = fleetUpdate(50);
        Buffer deflated = BusCompression.deflate(plain);
        IllegalArgumentException big = assertThrows(IllegalArgumentException.class,
                () -> BusCompression.inflate(deflated, plain.length() - 1));
        assertTrue(big.getMessage().contains("expands past"), big.getMessage());
        assertThrows(IllegalArgumentException.class, () -> BusCompression.inflate(plain, 1 << 20), "plain JSON");
        IllegalArgumentException cut = assertThrows(IllegalArgumentException.class,
                () -> BusCompression.inflate(deflated.getBuffer(0, deflated.length() / 2), 1 << 20));
        assertTrue(cut.getMessage().contains("truncated"), cut.getMessage());
    }
}
