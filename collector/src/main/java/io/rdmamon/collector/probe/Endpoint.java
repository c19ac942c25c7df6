package io.rdmamon.collector.probe;

/** One port of a probe: {@code node}, {@code device}, {@code port} as in the request. */
public record Endpoint(String node, String device, int port) {
    @Override
    public String toString() {
        return node + " " + device + "/" + port;
    }
}
