package io.rdmamon.protocol.testing;

import io.rdmamon.protocol.model.QosConfig;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds {@link QosConfig}s for tests, starting from what mlx5 reports after a driver load (docs/reference/qos-dcb.md
 * §2): trust
 * pcp (empty APP table), PFC off, ETS vendor 100% with {@code prio_tc {1,0,2,3,4,5,6,7}}, DCBX host, no OFED files.
 * Every setter returns the builder.
 */
public final class QosSamples {
    private String source = QosConfig.SOURCE_NETLINK;
    private Integer dcbx = 0x0d;
    private int pfcMask;
    private boolean pfcRead = true;
    private List<Integer> priorityTc = List.of(1, 0, 2, 3, 4, 5, 6, 7);
    private List<String> tsa = List.of("vendor", "vendor", "vendor", "vendor", "vendor", "vendor", "vendor", "vendor");
    private List<Integer> bandwidth = List.of(100, 100, 100, 100, 100, 100, 100, 100);
    private boolean etsRead = true;
    private final List<QosConfig.AppEntry> app = new ArrayList<>();
    private List<String> trustOrder;
    private QosConfig.Ecn ecn;
    private Integer trafficClass;
    private Integer defaultRoceTos;

    private QosSamples() {
    }

    /** The state after a driver load or reboot: trust pcp, PFC off, ETS defaults. */
    public static QosSamples afterReboot() {
        return new QosSamples();
    }

    /**
     * A lossless RoCE configuration: trust dscp with the firmware-default map ({@code prio = dscp >> 3}, as
     * {@code mlnx_qos --trust dscp} writes it), PFC on {@code lossless}.
     */
    public static QosSamples lossless(int... lossless) {
        return new QosSamples().trustDscpDefaultMap().pfc(lossless);
    }

    public QosSamples source(String value) {
        source = value;
        return this;
    }

    public QosSamples dcbx(Integer bits) {
        dcbx = bits;
        return this;
    }

    public QosSamples pfc(int... priorities) {
        pfcMask = 0;
        for (int p : priorities) {
            pfcMask |= 1 << p;
        }
        return this;
    }

    /** PFC could not be read (the op failed): {@link QosConfig#pfc()} is null. */
    public QosSamples pfcUnread() {
        pfcRead = false;
        return this;
    }

    public QosSamples etsUnread() {
        etsRead = false;
        return this;
    }

    /** All 64 DSCPs with {@code prio = dscp >> 3}. */
    public QosSamples trustDscpDefaultMap() {
        app.clear();
        for (int d = 0; d < 64; d++) {
            app.add(new QosConfig.AppEntry(QosConfig.SELECTOR_DSCP, d >> 3, d));
        }
        return this;
    }

    /** Maps {@code dscp} to {@code priority}, replacing an existing entry of that DSCP. */
    public QosSamples dscp(int dscp, int priority) {
        app.removeIf(e -> e.isDscp() && e.protocol() == dscp);
        app.add(new QosConfig.AppEntry(QosConfig.SELECTOR_DSCP, priority, dscp));
        return this;
    }

    /** Removes every DSCP entry: mlx5 falls back to trust pcp. */
    public QosSamples trustPcp() {
        app.removeIf(QosConfig.AppEntry::isDscp);
        return this;
    }

    public QosSamples trustOrder(String... selectors) {
        trustOrder = List.of(selectors);
        return this;
    }

    public QosSamples priorityTc(Integer... tcs) {
        priorityTc = List.of(tcs);
        return this;
    }

    public QosSamples ets(List<String> tsaPerTc, List<Integer> bandwidthPerTc) {
        tsa = List.copyOf(tsaPerTc);
        bandwidth = List.copyOf(bandwidthPerTc);
        return this;
    }

    /** OFED ECN files for every priority: np and rp enabled exactly on {@code enabled}. */
    public QosSamples ecn(int... enabled) {
        Map<Integer, Boolean> np = new LinkedHashMap<>();
        for (int p = 0; p < QosConfig.PRIORITIES; p++) {
            np.put(p, false);
        }
        for (int p : enabled) {
            np.put(p, true);
        }
        ecn = new QosConfig.Ecn(np, np, 48, 6);
        return this;
    }

    public QosSamples ecn(Map<Integer, Boolean> notificationPoint, Map<Integer, Boolean> reactionPoint) {
        ecn = new QosConfig.Ecn(notificationPoint, reactionPoint, null, null);
        return this;
    }

    public QosSamples trafficClass(Integer tos) {
        trafficClass = tos;
        return this;
    }

    public QosSamples defaultRoceTos(Integer tos) {
        defaultRoceTos = tos;
        return this;
    }

    public QosConfig build() {
        return new QosConfig(source, dcbx, pfcRead ? new QosConfig.Pfc(8, pfcMask, 7) : null,
                etsRead ? new QosConfig.Ets(false, 8, bandwidth, tsa, priorityTc) : null, app, trustOrder, null, null,
                ecn, trafficClass, defaultRoceTos);
    }
}
