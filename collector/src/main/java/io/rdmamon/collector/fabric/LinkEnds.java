package io.rdmamon.collector.fabric;

import io.rdmamon.protocol.fabric.FabricLink;
import io.rdmamon.protocol.fabric.NodeType;

import java.util.Objects;

/**
 * A link's name by both its ends, kept apart from the sweep that met it (a link that went down is still named by
 * what the last sweep that saw it up said). End {@code a} sorts first, as in {@link FabricLink}.
 */
public record LinkEnds(End a, End b) {
    public LinkEnds {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
    }

    /** One end: node GUID, its type and description, and the port. */
    public record End(String guid, NodeType type, String description, int port) {
        /** {@code leaf1 (0x…)[2]}. */
        @Override
        public String toString() {
            return description + " (" + guid + ")[" + port + "]";
        }

        /** {@code guid/port}: how a port is named in the API. */
        public String key() {
            return guid + "/" + port;
        }
    }

    public static LinkEnds of(FabricLink link) {
        return new LinkEnds(end(link.a()), end(link.b()));
    }

    private static End end(FabricLink.End end) {
        return new End(end.node().guid(), end.node().type(), end.node().description(), end.port().number());
    }

    /** {@code guid/port-guid/port}: one name per cable. */
    public String id() {
        return a.key() + "-" + b.key();
    }

    /** Whether {@code guid}'s port {@code port} is one of the ends. */
    public boolean has(String guid, int port) {
        return a.guid().equals(guid) && a.port() == port || b.guid().equals(guid) && b.port() == port;
    }

    @Override
    public String toString() {
        return a + " <-> " + b;
    }
}
