package io.rdmamon.agent.sim;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The QoS configuration of one simulated RoCE port, written into its host tree as {@code dcb -j} captures
 * ({@code dcb/<if>/*.json}, docs/architecture.md "Host root") and, on MLNX_OFED hosts, the OFED ECN and traffic class
 * files and the
 * rdma_cm configfs ToS (docs/reference/qos-dcb.md §3, §4). What a well-run fleet sets (docs/reference/qos-dcb.md §6.1):
 * trust dscp, 64 DSCP APP
 * entries mapping DSCP d to d>>3 except the fleet's RoCE DSCP, which maps to the lossless priority; PFC on exactly
 * that priority; the lossless priority in its own ETS class; DCBX owned by the host. The QoS scenarios change it the
 * way real hosts lose it.
 *
 * @param device         RDMA device name
 * @param netdev         its netdev
 * @param fault          the port's fault
 * @param lossless       the fleet's lossless priority
 * @param wrongPriority  the lossy priority a wrong map sends the RoCE DSCP to
 * @param roceDscp       the DSCP the fleet's RoCE traffic carries
 * @param ofed           the host runs MLNX_OFED: ECN files, traffic_class, a configfs ToS
 * @param pairsWithBlank the host's iproute2 is 6.5 or later: APP pairs print as {@code [d,p," "]}
 */
record SimulatedQos(String device, String netdev, Scenario fault, int lossless, int wrongPriority, int roceDscp,
                    boolean ofed, boolean pairsWithBlank) {
    /** CNPs on DSCP 48, 802.1p priority 6: the switch side's strict CNP class (docs/reference/qos-dcb.md §6.1). */
    static final int CNP_DSCP = 48;
    static final int CNP_PRIORITY = 6;

    /** Whether the port has PFC on its lossless priority (after a reboot, {@code pfc-lost}, it has none). */
    boolean pfcOn() {
        return fault != Scenario.PFC_LOST;
    }

    /** The priority the RoCE traffic is classified to, as this configuration makes it. */
    int rdmaPriority() {
        return switch (fault) {
            // trust pcp (explicitly, or after a reboot emptied the APP table): untagged RoCE lands on priority 0 (the
            // lossy default); when the lossless priority is 0 itself, the simulator uses the other lossy one
            case PFC_LOST, TRUST_PCP, DSCP_MAP_WRONG -> wrongPriority;
            default -> lossless;
        };
    }

    void write(HostTree tree) throws IOException {
        String dcb = "dcb/" + netdev + "/";
        boolean[] pfc = new boolean[8];
        pfc[lossless] = pfcOn();
        tree.write(dcb + "pfc.json", "{\"pfc_cap\":8,\"macsec_bypass\":false,\"delay\":7,\"prio_pfc\":["
                + IntStream.range(0, 8).mapToObj(p -> Boolean.toString(pfc[p])).collect(Collectors.joining(","))
                + "]}\n");
        tree.write(dcb + "ets.json", ets());
        tree.write(dcb + "app.json", app());
        // mlx5 has no apptrust: `dcb apptrust show` fails and prints a bare newline (docs/reference/qos-dcb.md §2, §5)
        tree.write(dcb + "apptrust.json", "\n");
        tree.write(dcb + "dcbx.json", "{\"host\":true,\"cee\":true,\"ieee\":true}\n");
        if (ofed) {
            writeOfed(tree);
        }
    }

    private String ets() {
        List<Integer> prioTc;
        List<Integer> bandwidth;
        List<String> tsa;
        if (fault == Scenario.PFC_LOST) {
            // the driver's init defaults (mlx5e_ets_init): all TCs vendor at 100 %, priorities 0 and 1 swapped
            prioTc = List.of(1, 0, 2, 3, 4, 5, 6, 7);
            bandwidth = Collections.nCopies(8, 100);
            tsa = Collections.nCopies(8, "vendor");
        } else {
            // the lossless priority in its own TC, sharing the link half and half with the TC of priority 0 (TCP)
            prioTc = IntStream.range(0, 8).boxed().toList();
            int other = lossless == 0 ? 1 : 0;
            Integer[] bw = new Integer[8];
            Arrays.fill(bw, 0);
            bw[lossless] = 50;
            bw[other] = 50;
            bandwidth = List.of(bw);
            tsa = Collections.nCopies(8, "ets");
        }
        return "{\"willing\":false,\"ets_cap\":8,\"cbs\":false,\"tc_bw\":" + numbers(bandwidth)
                + ",\"pg_bw\":[0,0,0,0,0,0,0,0],\"tc_tsa\":["
                + tsa.stream().map(t -> "\"" + t + "\"").collect(Collectors.joining(",")) + "],\"prio_tc\":"
                + numbers(prioTc) + ",\"reco_tc_bw\":[0,0,0,0,0,0,0,0],\"reco_tc_tsa\":[\"strict\",\"strict\","
                + "\"strict\",\"strict\",\"strict\",\"strict\",\"strict\",\"strict\"],\"reco_prio_tc\":[0,0,0,0,0,0,0,0]}\n";
    }

    private String app() {
        if (fault == Scenario.PFC_LOST || fault == Scenario.TRUST_PCP) {
            // no DSCP entries = trust pcp on mlx5; dcb app prints an empty object
            return "{}\n";
        }
        List<String> pairs = new ArrayList<>(64);
        for (int dscp = 0; dscp < 64; dscp++) {
            int priority = dscp != roceDscp ? dscp >> 3 : fault == Scenario.DSCP_MAP_WRONG ? wrongPriority : lossless;
            pairs.add("[" + dscp + "," + priority + (pairsWithBlank ? ",\" \"]" : "]"));
        }
        return "{\"dscp_prio\":[" + String.join(",", pairs) + "]}\n";
    }

    private void writeOfed(HostTree tree) throws IOException {
        String ecn = "sys/class/net/" + netdev + "/ecn/";
        for (int priority = 0; priority < 8; priority++) {
            // ecn-off: DCQCN disabled in firmware on every priority, which OFED shows here
            String enabled = fault == Scenario.ECN_OFF ? "0\n" : "1\n";
            tree.write(ecn + "roce_np/enable/" + priority, enabled);
            tree.write(ecn + "roce_rp/enable/" + priority, enabled);
        }
        tree.write(ecn + "roce_np/cnp_dscp", CNP_DSCP + "\n");
        tree.write(ecn + "roce_np/cnp_802p_prio", CNP_PRIORITY + "\n");
        int tos = roceDscp << 2;
        tree.write("sys/class/infiniband/" + device + "/tc/1/traffic_class", "Global tclass=" + tos + "\n");
        tree.write("sys/kernel/config/rdma_cm/" + device + "/ports/1/default_roce_tos", tos + "\n");
    }

    private static String numbers(List<Integer> values) {
        return "[" + values.stream().map(String::valueOf).collect(Collectors.joining(",")) + "]";
    }
}
