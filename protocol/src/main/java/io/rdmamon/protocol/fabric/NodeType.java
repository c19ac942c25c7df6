package io.rdmamon.protocol.fabric;

import java.util.Arrays;

/**
 * A fabric node's kind: SMP NodeInfo (attribute 0x0011) {@code NodeType}, IBTA spec vol. 1 §14.2.5.3. The names are
 * the ones ibnetdiscover prints ({@code Ca}, {@code Switch}, {@code Router}) upper-cased.
 */
public enum NodeType {
    CA(1), SWITCH(2), ROUTER(3);

    private final int id;

    NodeType(int id) {
        this.id = id;
    }

    /** NodeInfo.NodeType's value. */
    public int id() {
        return id;
    }

    /** The type of NodeInfo.NodeType {@code id}. */
    public static NodeType ofId(int id) {
        return Arrays.stream(values()).filter(t -> t.id == id).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("node type " + id + " is not 1 (CA), 2 (Switch) or 3 (Router)"));
    }
}
