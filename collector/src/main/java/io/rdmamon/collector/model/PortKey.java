package io.rdmamon.collector.model;

/**
 * One port of one node, written {@code node/device/port} in the protocol (the node name may itself
 * hold slashes, device names and port numbers cannot).
 */
public record PortKey(String node, String device, int port) {
    /** {@code device/port}, the key of {@code NodeStore.portsByKey}. */
    public String devicePort() {
        return device + "/" + port;
    }

    @Override
    public String toString() {
        return node + "/" + device + "/" + port;
    }

    /** Parses {@code node/device/port}; the message names the text at fault. */
    public static PortKey parse(String text) {
        int portSlash = text.lastIndexOf('/');
        int deviceSlash = portSlash <= 0 ? -1 : text.lastIndexOf('/', portSlash - 1);
        if (deviceSlash <= 0 || deviceSlash + 1 == portSlash || portSlash + 1 == text.length()) {
            throw new IllegalArgumentException("watch '" + text + "' is not node/device/port");
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(portSlash + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("watch '" + text + "': port is not a number");
        }
        if (port < 1 || port > 255) {
            throw new IllegalArgumentException("watch '" + text + "': port must be 1..255");
        }
        return new PortKey(text.substring(0, deviceSlash), text.substring(deviceSlash + 1, portSlash), port);
    }
}
