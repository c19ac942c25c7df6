package io.rdmamon.cli.dashboard;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Made-up {@code GET /api/pingmesh} answers (the collector's JSON shape, docs/dashboard.md "Pingmesh") for a fleet of
 * {@code nodes} × {@code portsPerNode} ports, {@code nodesPerGroup} nodes under each switch: every port probes
 * {@code ownGroupPeers} ports of its own group and {@code otherPeers} of other groups, so there are
 * ports × (ownGroupPeers + otherPeers) cells. Round {@code round} differs from the one before in every cell's round
 * trip and in which port and which group are bad, so that every update redraws the whole matrix. Test data for the
 * frame-time bench; the real answer comes from the collector.
 */
final class CannedPingmesh {
    private final int nodes;
    private final int portsPerNode;
    private final int nodesPerGroup;
    private final int ownGroupPeers;
    private final int otherPeers;

    CannedPingmesh(int nodes, int portsPerNode, int nodesPerGroup, int ownGroupPeers, int otherPeers) {
        if (nodes < 1 || portsPerNode < 1 || nodesPerGroup < 1 || ownGroupPeers < 0 || otherPeers < 0) {
            throw new IllegalArgumentException("nodes, ports per node and nodes per group must be positive, peers not negative");
        }
        this.nodes = nodes;
        this.portsPerNode = portsPerNode;
        this.nodesPerGroup = nodesPerGroup;
        this.ownGroupPeers = Math.min(ownGroupPeers, nodesPerGroup * portsPerNode - 1);
        this.otherPeers = nodes > nodesPerGroup ? otherPeers : 0;
    }

    int ports() {
        return nodes * portsPerNode;
    }

    int cells() {
        return ports() * (ownGroupPeers + otherPeers);
    }

    int groups() {
        return (nodes + nodesPerGroup - 1) / nodesPerGroup;
    }

    static String nodeName(int node) {
        return String.format(Locale.ROOT, "node-%05d", node + 1);
    }

    static String groupName(int group) {
        return String.format(Locale.ROOT, "leaf-%04d", group + 1);
    }

    private int groupOf(int port) {
        return port / portsPerNode / nodesPerGroup;
    }

    /** The answer of round {@code round}, as UTF-8 JSON. */
    byte[] answer(int round) {
        SplittableRandom random = new SplittableRandom(round);
        int ports = ports();
        int groupPorts = nodesPerGroup * portsPerNode;
        int lossyPort = random.nextInt(ports);
        int slowGroup = random.nextInt(groups());
        StringBuilder json = new StringBuilder(48 * cells() + 80 * ports);
        json.append("{\"enabled\":true,\"roundSeconds\":1,\"windowSeconds\":60,\"lossRttSeconds\":1.0,\"groups\":[");
        for (int g = 0; g < groups(); g++) {
            int size = Math.min(groupPorts, ports - g * groupPorts);
            json.append(g == 0 ? "" : ",").append("{\"name\":\"").append(groupName(g)).append("\",\"source\":\"lldp\",\"ports\":")
                    .append(size).append('}');
        }
        json.append("],\"ports\":[");
        for (int p = 0; p < ports; p++) {
            String state = p == lossyPort ? "loss" : groupOf(p) == slowGroup ? "slow" : "ok";
            json.append(p == 0 ? "" : ",").append("{\"node\":\"").append(nodeName(p / portsPerNode)).append("\",\"device\":\"mlx5_")
                    .append(p % portsPerNode).append("\",\"port\":1,\"group\":\"").append(groupName(groupOf(p)))
                    .append("\",\"state\":\"").append(state).append("\"}");
        }
        json.append("],\"cells\":[");
        boolean first = true;
        for (int src = 0; src < ports; src++) {
            int groupStart = groupOf(src) * groupPorts;
            int groupSize = Math.min(groupPorts, ports - groupStart);
            for (int i = 1; i <= ownGroupPeers && i < groupSize; i++) {
                first = cell(json, first, random, src, groupStart + (src - groupStart + i) % groupSize, lossyPort, slowGroup);
            }
            for (int i = 0; i < otherPeers; i++) {
                int dst = random.nextInt(ports);
                if (groupOf(dst) == groupOf(src)) {
                    dst = (dst + groupPorts) % ports;
                }
                first = cell(json, first, random, src, dst, lossyPort, slowGroup);
            }
        }
        json.append("],\"verdicts\":[{\"rule\":\"path_loss\",\"culprit\":\"port\",\"name\":\"")
                .append(nodeName(lossyPort / portsPerNode)).append(" mlx5_").append(lossyPort % portsPerNode)
                .append("/1\",\"summary\":\"loses probes to every peer\",\"ports\":[").append(lossyPort).append("]}]}");
        return json.toString().getBytes(StandardCharsets.UTF_8);
    }

    private boolean cell(StringBuilder json, boolean first, SplittableRandom random, int src, int dst, int lossyPort, int slowGroup) {
        int sent = 60;
        int lost = src == lossyPort || dst == lossyPort ? 1 + random.nextInt(20) : 0;
        boolean slow = groupOf(src) == slowGroup || groupOf(dst) == slowGroup;
        double p50 = (slow ? 30e-6 : 8e-6) * (0.9 + 0.2 * random.nextDouble());
        double p99 = p50 * (1.5 + random.nextDouble());
        json.append(first ? "" : ",").append('[').append(src).append(',').append(dst).append(',').append(sent).append(',')
                .append(lost).append(',').append(String.format(Locale.ROOT, "%.3e,%.3e", p50, p99)).append(',')
                .append(random.nextInt(60)).append(']');
        return false;
    }
}
