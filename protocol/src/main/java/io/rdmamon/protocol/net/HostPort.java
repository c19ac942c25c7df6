package io.rdmamon.protocol.net;

/**
 * A {@code HOST:PORT} to listen on ({@code [::1]:9470} for IPv6; port 0 = any free port), as the collector's
 * and the agent's {@code --listen} take it.
 *
 * @param host host name or literal address, without brackets
 * @param port 0..65535
 */
public record HostPort(String host, int port) {

    /**
     * Parses {@code hostPort}.
     *
     * @param origin the flag, variable or file key the text came from, named in the error
     * @throws IllegalArgumentException naming {@code origin} when the text is not a valid address
     */
    public static HostPort parse(String hostPort, String origin) {
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0 || colon == hostPort.length() - 1) {
            throw new IllegalArgumentException(origin + ": expected HOST:PORT, got '" + hostPort + "'");
        }
        String host = hostPort.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(hostPort.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(origin + ": port of '" + hostPort + "' is not a number");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException(origin + ": port " + port + " out of range 0..65535");
        }
        return new HostPort(host, port);
    }
}
