package io.rdmamon.collector.config;

import io.rdmamon.protocol.net.HostPort;

/**
 * A {@code HOST:PORT} to listen on ({@code [::1]:9470} for IPv6; port 0 = any free port).
 *
 * @param host host name or literal address, without brackets
 * @param port 0..65535
 */
public record ListenAddress(String host, int port) {

    /**
     * Parses {@code hostPort} ({@link HostPort#parse}, the agent's {@code --listen} parser).
     *
     * @param origin the flag, variable or file key the text came from, named in the error
     * @throws ConfigException naming {@code origin} when the text is not a valid address
     */
    public static ListenAddress parse(String hostPort, String origin) {
        try {
            HostPort parsed = HostPort.parse(hostPort, origin);
            return new ListenAddress(parsed.host(), parsed.port());
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }
}
