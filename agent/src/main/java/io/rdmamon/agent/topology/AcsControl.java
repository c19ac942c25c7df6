package io.rdmamon.agent.topology;

import java.util.ArrayList;
import java.util.List;

/**
 * The ACS Control register (extended capability 0x000D, cap+6): bit 0 Source Validation, 1 Translation Blocking,
 * 2 P2P Request Redirect, 3 P2P Completion Redirect, 4 Upstream Forwarding, 5 P2P Egress Control, 6 Direct
 * Translated P2P. rdma-core's {@code rdma_topo} wants {@code xx000x0} (SV, RR, CR, UF off) on the bridges of a
 * bare-metal GPU↔NIC path (docs/reference/pingmesh-workloads-topology.md §3.4).
 */
public record AcsControl(int raw) {
    public static final String[] NAMES = {"Source Validation", "Translation Blocking", "P2P Request Redirect",
            "P2P Completion Redirect", "Upstream Forwarding", "P2P Egress Control", "Direct Translated P2P"};

    public boolean sourceValidation() {
        return bit(0);
    }

    public boolean translationBlocking() {
        return bit(1);
    }

    public boolean requestRedirect() {
        return bit(2);
    }

    public boolean completionRedirect() {
        return bit(3);
    }

    public boolean upstreamForwarding() {
        return bit(4);
    }

    public boolean egressControl() {
        return bit(5);
    }

    public boolean directTranslated() {
        return bit(6);
    }

    /** P2P is sent up to the root complex: Request or Completion Redirect, or Upstream Forwarding. */
    public boolean redirectsP2p() {
        return requestRedirect() || completionRedirect() || upstreamForwarding();
    }

    /** The seven bits MSB first, as rdma_topo prints them ({@code 0011101}: DT EC UF CR RR TB SV). */
    public String bits() {
        StringBuilder s = new StringBuilder();
        for (int i = 6; i >= 0; i--) {
            s.append(bit(i) ? '1' : '0');
        }
        return s.toString();
    }

    /** The names of the bits that are on, lowest first. */
    public List<String> enabled() {
        List<String> on = new ArrayList<>();
        for (int i = 0; i < NAMES.length; i++) {
            if (bit(i)) {
                on.add(NAMES[i]);
            }
        }
        return on;
    }

    /** The names of the bits rdma_topo requires off on bare metal (SV, RR, CR, UF) that are on. */
    public List<String> bareMetalViolations() {
        List<String> on = new ArrayList<>();
        for (int i : new int[] {2, 3, 4, 0}) {
            if (bit(i)) {
                on.add(NAMES[i]);
            }
        }
        return on;
    }

    private boolean bit(int i) {
        return (raw >> i & 1) == 1;
    }
}
