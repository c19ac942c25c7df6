package io.rdmamon.protocol.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Loopback ports for a server a test starts later (often in a child process, seconds after the choice). A port found
 * free with {@code bind(0)} comes from the kernel's ephemeral range (32768–60999 by default,
 * {@code net.ipv4.ip_local_port_range}), which the kernel also hands out as the source port of every outgoing
 * connection and to every other {@code bind(0)}: with two ITs running side by side (docs/testing.md), a replica once
 * failed to start on "Address already in use" because its member port was taken in between. These ports come from
 * below that range, where the kernel never picks a port by itself, and each one only once in this JVM (a cursor that
 * starts at a random place, so that two JVMs seldom meet); each is checked free on loopback when handed out.
 */
public final class LoopbackPorts {
    /** Below the kernel's default ephemeral range, above the ports services usually take. */
    private static final int FIRST = 20_000;
    private static final int END = 32_768;
    /** Counts up for ever; a port is {@code FIRST + count mod (END - FIRST)}. */
    private static final AtomicInteger NEXT = new AtomicInteger(ThreadLocalRandom.current().nextInt(END - FIRST));

    private LoopbackPorts() {
    }

    /** A free loopback port, not handed out again by this JVM before the 12,767 others of the range. */
    public static int free() throws IOException {
        return freeRun(1);
    }

    /** The first of two consecutive free loopback ports (a collector's HTTP port and its cluster member port). */
    public static int freePair() throws IOException {
        return freeRun(2);
    }

    private static int freeRun(int length) throws IOException {
        for (int attempt = 0; attempt < END - FIRST; attempt++) {
            int first = FIRST + Math.floorMod(NEXT.getAndAdd(length), END - FIRST);
            if (first + length <= END && bindable(first, length)) {
                return first;
            }
        }
        throw new IOException("no " + length + " consecutive free loopback ports in " + FIRST + "–" + (END - 1));
    }

    private static boolean bindable(int first, int length) {
        for (int port = first; port < first + length; port++) {
            try (ServerSocket ignored = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                // free: closed again at once
            } catch (IOException taken) {
                return false;
            }
        }
        return true;
    }
}
