package io.rdmamon.protocol.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

class LoopbackPortsTest {
    @Test
    void portsComeFromBelowTheEphemeralRangeAndNeverTwiceAndEachBinds() throws Exception {
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            int port = LoopbackPorts.free();
            assertTrue(port >= 20_000 && port < 32_768, "outside the kernel's default ephemeral range: " + port);
            assertTrue(seen.add(port), "handed out twice: " + port);
            try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                assertEquals(port, socket.getLocalPort());
            }
        }
    }

    @Test
    void aPairIsTwoConsecutiveFreePortsAndPortsBoundMeanwhileArePassedOver() throws Exception {
        int first = LoopbackPorts.freePair();
        List<ServerSocket> bound = new ArrayList<>();
        Set<Integer> taken = new HashSet<>();
        try {
            bound.add(new ServerSocket(first, 1, InetAddress.getLoopbackAddress()));
            bound.add(new ServerSocket(first + 1, 1, InetAddress.getLoopbackAddress()));
            // the ports the cursor reaches next, taken by someone else before they are handed out
            for (int port = first + 2; port < Math.min(first + 12, 32_768); port++) {
                try {
                    bound.add(new ServerSocket(port, 1, InetAddress.getLoopbackAddress()));
                    taken.add(port);
                } catch (IOException alreadyTaken) {
                    taken.add(port);
                }
            }
            int next = LoopbackPorts.free();
            assertFalse(taken.contains(next) || next == first || next == first + 1, "a taken port handed out: " + next);
            new ServerSocket(next, 1, InetAddress.getLoopbackAddress()).close();
        } finally {
            for (ServerSocket socket : bound) {
                socket.close();
            }
        }
    }
}
