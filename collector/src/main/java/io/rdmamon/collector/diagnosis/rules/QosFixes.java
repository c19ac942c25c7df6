package io.rdmamon.collector.diagnosis.rules;

import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/** The exact commands that set a part of a port's QoS configuration (iproute2 {@code dcb}, with mlnx_qos equivalents). */
final class QosFixes {
    private QosFixes() {
    }

    /** PFC on exactly {@code wanted}: {@code dcb pfc set dev IF prio-pfc 3:on 4:off} and the mlnx_qos row. */
    static String pfc(String netdev, Set<Integer> current, Set<Integer> wanted) {
        SortedSet<Integer> touched = new TreeSet<>(wanted);
        touched.addAll(current);
        String dcb = touched.stream().map(p -> p + (wanted.contains(p) ? ":on" : ":off")).collect(Collectors.joining(" "));
        String row = IntStream.range(0, 8).mapToObj(p -> wanted.contains(p) ? "1" : "0").collect(Collectors.joining(","));
        return "`dcb pfc set dev " + netdev + " prio-pfc " + dcb + "` (mlnx_qos -i " + netdev + " --pfc " + row + ")";
    }

    /** DSCP {@code dscp} to {@code priority}; the first DSCP entry also switches mlx5 to trust dscp. */
    static String dscp(String netdev, int dscp, int priority) {
        return "`dcb app add dev " + netdev + " dscp-prio " + dscp + ":" + priority + "`";
    }

    /** Trust dscp with the firmware-default map (prio = dscp >> 3). */
    static String trustDscp(String netdev, int dscp, int priority) {
        return dscp(netdev, dscp, priority) + " (mlnx_qos -i " + netdev + " --trust dscp)";
    }

    /** Priority to traffic class. */
    static String priorityTc(String netdev, int priority, int tc) {
        return "`dcb ets set dev " + netdev + " prio-tc " + priority + ":" + tc + "`";
    }

    /** DCQCN on a priority (MLNX_OFED sysfs). */
    static String ecn(String netdev, int priority) {
        return "`echo 1 > /sys/class/net/" + netdev + "/ecn/roce_np/enable/" + priority + "` and `echo 1 > /sys/class/net/"
                + netdev + "/ecn/roce_rp/enable/" + priority + "`";
    }
}
