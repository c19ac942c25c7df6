package io.rdmamon.agent.sim;

/** Independent of the simulator's code: the modified EUI-64 of a MAC text, as node_guid text. */
final class Eui64 {
    private Eui64() {
    }

    static String of(String mac) {
        String[] bytes = mac.split(":");
        int first = Integer.parseInt(bytes[0], 16) ^ 0x02;
        return String.format("%02x%s:%sff:fe%s:%s%s", first, bytes[1], bytes[2], bytes[3], bytes[4], bytes[5]);
    }
}
