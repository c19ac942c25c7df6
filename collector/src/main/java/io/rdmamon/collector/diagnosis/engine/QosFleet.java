package io.rdmamon.collector.diagnosis.engine;

import io.rdmamon.collector.model.QosProfile;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.function.Function;

/**
 * How many RoCE ports with a QoS configuration run each {@link QosProfile}, kept up to date port by port (like
 * {@link FleetRates}) so that the majority profile is found without walking the fleet.
 *
 * <p>The majority is taken part by part among the ports that know the part: a fleet of ConnectX-5 hosts with
 * MLNX_OFED (ECN readable) and ConnectX-6 hosts without it (ECN unknown) still agrees on trust and PFC, and a part
 * unknown on some ports must not split the fleet into profiles of which none is a majority.
 */
final class QosFleet {
    private final Map<QosProfile, Integer> counts = new HashMap<>();
    private int total;
    /** The counts of the other replicas of a cluster, by replica, as they last published them. */
    private final Map<String, Map<QosProfile, Integer>> remote = new HashMap<>();
    /**
     * The last majority and the {@code minPorts} it was taken with; valid until the counts change. Every port of
     * every sample asks for it, and the counts change only when a port's configuration does.
     */
    private QosProfile.Fleet lastMajority;
    private Integer lastMinPorts;

    void add(QosProfile profile) {
        counts.merge(profile, 1, Integer::sum);
        total++;
        lastMinPorts = null;
    }

    void remove(QosProfile profile) {
        if (counts.containsKey(profile)) {
            counts.computeIfPresent(profile, (p, n) -> n > 1 ? n - 1 : null);
            total--;
            lastMinPorts = null;
        }
    }

    /**
     * The fleet profile: each part the strict majority of the ports that know it, once at least {@code minPorts}
     * ports have a configuration; null when too few ports have one or the trust state has no strict majority (a
     * split fleet has no profile to drift from). A part without a strict majority is left unknown (not compared).
     */
    /** This collector's own counts (a copy), to publish to the other replicas. */
    Map<QosProfile, Integer> local() {
        return new HashMap<>(counts);
    }

    /** Replaces what {@code replica} counted; its ports count with this collector's from now on. */
    void remote(String replica, Map<QosProfile, Integer> theirs) {
        remote.put(replica, theirs);
        lastMinPorts = null;
    }

    void forget(String replica) {
        remote.remove(replica);
        lastMinPorts = null;
    }

    QosProfile.Fleet majority(int minPorts) {
        if (lastMinPorts == null || minPorts != lastMinPorts) {
            lastMajority = currentMajority(minPorts);
            lastMinPorts = minPorts;
        }
        return lastMajority;
    }

    private QosProfile.Fleet currentMajority(int minPorts) {
        if (remote.isEmpty()) {
            return majority(counts, total, minPorts);
        }
        Map<QosProfile, Integer> merged = new HashMap<>(counts);
        remote.values().forEach(theirs -> theirs.forEach((profile, n) -> merged.merge(profile, n, Integer::sum)));
        return majority(merged, merged.values().stream().mapToInt(Integer::intValue).sum(), minPorts);
    }

    /** The majority over {@code counts} (this collector's, or merged with the other replicas'). */
    private static QosProfile.Fleet majority(Map<QosProfile, Integer> counts, int total, int minPorts) {
        if (total < minPorts) {
            return null;
        }
        String trust = majorityOf(counts, QosProfile::trust);
        if (trust == null) {
            return null;
        }
        SortedSet<Integer> pfc = majorityOf(counts, QosProfile::pfc);
        List<Integer> dscp = majorityOf(counts, p -> p.roceDscp() == null || p.roceDscpPriority() == null ? null
                : Arrays.asList(p.roceDscp(), p.roceDscpPriority()));
        List<Integer> losslessTc = majorityOf(counts, p -> Objects.equals(p.pfc(), pfc) ? p.losslessTc() : null);
        Boolean ecn = majorityOf(counts, QosProfile::ecnOnLossless);
        QosProfile profile = new QosProfile(trust, pfc, dscp == null ? null : dscp.get(0),
                dscp == null ? null : dscp.get(1), losslessTc, ecn);
        int agreeing = 0;
        for (Map.Entry<QosProfile, Integer> e : counts.entrySet()) {
            if (e.getKey().differences(profile).isEmpty()) {
                agreeing += e.getValue();
            }
        }
        return new QosProfile.Fleet(profile, agreeing, total, false);
    }

    /** The value of {@code part} held by more than half the ports that know it (non-null); null when none is. */
    private static <T> T majorityOf(Map<QosProfile, Integer> counts, Function<QosProfile, T> part) {
        Map<T, Integer> votes = new HashMap<>();
        int known = 0;
        for (Map.Entry<QosProfile, Integer> e : counts.entrySet()) {
            T value = part.apply(e.getKey());
            if (value != null) {
                votes.merge(value, e.getValue(), Integer::sum);
                known += e.getValue();
            }
        }
        for (Map.Entry<T, Integer> vote : votes.entrySet()) {
            if (vote.getValue() * 2 > known) {
                return vote.getKey();
            }
        }
        return null;
    }
}
