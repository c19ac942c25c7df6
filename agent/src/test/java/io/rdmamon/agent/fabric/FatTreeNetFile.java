package io.rdmamon.agent.fabric;

import java.util.ArrayList;
import java.util.List;

/**
 * An ibsim topology file (ibnetdiscover's format, ibsim-utils' net-examples) of a two-level fat tree: {@code leaves}
 * leaf switches with {@code hostsPerLeaf} single-port HCAs each, and {@code spines} spines to which every leaf has
 * {@code uplinksPerSpine} cables. Host {@code h<leaf>-<i>} sits on leaf port i+1, the uplinks follow; the first node
 * listed (h0-0) is the one the SM and the sweeper attach as. {@code narrowHost} (may be null) names a host whose
 * cable is declared {@code w=1}: it trains at 1X.
 */
record FatTreeNetFile(int leaves, int hostsPerLeaf, int spines, int uplinksPerSpine, String narrowHost) {
    /** The scale fabric: 64 leaves of 18 HCAs, 9 spines of 128 ports (1,152 HCAs, 73 switches). */
    static FatTreeNetFile scale() {
        return new FatTreeNetFile(64, 18, 9, 2, null);
    }

    String text() {
        List<String> records = new ArrayList<>();
        for (int l = 0; l < leaves; l++) {
            for (int h = 0; h < hostsPerLeaf; h++) {
                String host = host(l, h);
                records.add("Hca 1 \"" + host + "\"\n[1] \"leaf" + l + "\"[" + (h + 1) + "]" + width(host) + "\n");
            }
        }
        for (int l = 0; l < leaves; l++) {
            StringBuilder leaf = new StringBuilder("Switch " + leafPorts() + " \"leaf" + l + "\"\n");
            for (int h = 0; h < hostsPerLeaf; h++) {
                leaf.append('[').append(h + 1).append("] \"").append(host(l, h)).append("\"[1]")
                        .append(width(host(l, h))).append('\n');
            }
            for (int s = 0; s < spines; s++) {
                for (int k = 0; k < uplinksPerSpine; k++) {
                    leaf.append('[').append(uplinkPort(s, k)).append("] \"spine").append(s).append("\"[")
                            .append(spinePort(l, k)).append("]\n");
                }
            }
            records.add(leaf.toString());
        }
        for (int s = 0; s < spines; s++) {
            StringBuilder spine = new StringBuilder("Switch " + leaves * uplinksPerSpine + " \"spine" + s + "\"\n");
            for (int l = 0; l < leaves; l++) {
                for (int k = 0; k < uplinksPerSpine; k++) {
                    spine.append('[').append(spinePort(l, k)).append("] \"leaf").append(l).append("\"[")
                            .append(uplinkPort(s, k)).append("]\n");
                }
            }
            records.add(spine.toString());
        }
        return String.join("\n", records);
    }

    /** Every cable as "a"[p] - "b"[q] with the lower name first, as both ends name it. */
    List<String> cables() {
        List<String> cables = new ArrayList<>();
        for (int l = 0; l < leaves; l++) {
            for (int h = 0; h < hostsPerLeaf; h++) {
                cables.add(cable(host(l, h), 1, "leaf" + l, h + 1));
            }
            for (int s = 0; s < spines; s++) {
                for (int k = 0; k < uplinksPerSpine; k++) {
                    cables.add(cable("leaf" + l, uplinkPort(s, k), "spine" + s, spinePort(l, k)));
                }
            }
        }
        return cables;
    }

    static String cable(String a, int aPort, String b, int bPort) {
        String one = a + "[" + aPort + "]";
        String two = b + "[" + bPort + "]";
        return one.compareTo(two) < 0 ? one + " - " + two : two + " - " + one;
    }

    int nodeCount() {
        return leaves * hostsPerLeaf + leaves + spines;
    }

    private int leafPorts() {
        return hostsPerLeaf + spines * uplinksPerSpine;
    }

    private int uplinkPort(int spine, int k) {
        return hostsPerLeaf + k * spines + spine + 1;
    }

    private int spinePort(int leaf, int k) {
        return leaf * uplinksPerSpine + k + 1;
    }

    private String width(String host) {
        return host.equals(narrowHost) ? " w=1" : "";
    }

    static String host(int leaf, int i) {
        return "h" + leaf + "-" + i;
    }
}
