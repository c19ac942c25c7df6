package io.rdmamon.protocol.nccl;

import io.rdmamon.protocol.model.GidAdvice;
import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.GpuTopology;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.PortTransport;
import io.rdmamon.protocol.model.QosConfig;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The NCCL settings that match a host (docs/reference/qos-dcb.md §4): {@code NCCL_IB_HCA} (its active RDMA ports that
 * NCCL can use),
 * {@code NCCL_IB_GID_INDEX} (the RoCE v2 IPv4 GID, {@link GidAdvice}), {@code NCCL_IB_TC} (a DSCP that its DCB
 * configuration maps to a PFC priority, × 4) and {@code NCCL_SOCKET_IFNAME}, each with its reason; and the values of
 * the host's {@code /etc/nccl.conf} that contradict it. A pure function of one sample (plus the fleet's GID index).
 * A port that cannot carry RoCE v2 over IPv4 is left out of every setting, with a sentence saying why and the fix:
 * an active RoCE port without a RoCE v2 IPv4 GID (NCCL, with its default {@code NCCL_IB_ROCE_VERSION_NUM=2} and
 * {@code NCCL_IB_ADDR_FAMILY=AF_INET}, finds no GID to connect it with, and one such port would otherwise keep
 * {@code NCCL_IB_GID_INDEX} from the ports that can), and an InfiniBand or RoCE port that is not ACTIVE (NCCL skips
 * it; the exact {@code NCCL_IB_HCA} advised keeps it out once it comes up). Leaving a port out of the advice does not
 * take it off the {@code /etc/nccl.conf} check: NCCL still uses it unless that file's own {@code NCCL_IB_HCA}
 * ({@link NcclIfList}) leaves it out, so the file's {@code NCCL_IB_GID_INDEX} and {@code NCCL_IB_TC} must fit it.
 *
 * <p>On a GPU node (the sample carries its {@link GpuTopology}) the advice adds the NICs by GPU locality: for each
 * GPU the NIC NCCL pairs it with, the path between them, and whether NCCL will use GPUDirect RDMA on it. NCCL disables
 * GPUDirect RDMA when the NIC is farther than {@code NCCL_NET_GDR_LEVEL} (default PXB: no host bridge on the path;
 * docs/reference/pingmesh-workloads-topology.md §3.2), and stages through host memory instead. Raising that level would
 * push peer-to-peer DMA
 * through the CPU's root complex or across the socket interconnect, where it is slow or unsupported, so the advice
 * says to fix the placement (a NIC under the GPU's own PCIe switch, the rank pinned to it) rather than to set it.
 *
 * @param settings   the four settings in that order; a setting with a null value is best left unset
 * @param leftOut    the InfiniBand and RoCE ports left out, one sentence each: why, and how to bring the port in
 * @param mismatches {@code /etc/nccl.conf} values that contradict the host, one sentence each
 * @param locality   one sentence per GPU: its NIC, the path, GPUDirect RDMA or not and why; empty without GPUs
 */
public record NcclAdvice(List<Setting> settings, List<String> leftOut, List<String> mismatches, List<String> locality) {
    public static final String HCA = "NCCL_IB_HCA";
    public static final String GID_INDEX = "NCCL_IB_GID_INDEX";
    public static final String TC = "NCCL_IB_TC";
    public static final String SOCKET_IFNAME = "NCCL_SOCKET_IFNAME";
    public static final String GDR_LEVEL = "NCCL_NET_GDR_LEVEL";
    /** The path classes within NCCL's default {@code NCCL_NET_GDR_LEVEL} (PXB): no host bridge between GPU and NIC. */
    private static final Set<String> GDR_BY_DEFAULT = Set.of("PIX", "PXB");

    /** One setting: {@code value} null = leave it unset, for {@code reason}. */
    public record Setting(String name, String value, String reason) {
        /** {@code export NAME=VALUE  # reason}, or {@code # NAME unset: reason}. */
        public String exportLine() {
            return value == null ? "# " + name + " unset: " + reason : "export " + name + "=" + value + "  # " + reason;
        }
    }

    public NcclAdvice {
        settings = List.copyOf(settings);
        leftOut = List.copyOf(leftOut);
        mismatches = List.copyOf(mismatches);
        locality = List.copyOf(locality);
    }

    /** The settings' lines, a {@code # PORT left out of …} line per port left out, then a comment line per GPU. */
    public List<String> exportLines() {
        List<String> lines = new ArrayList<>(settings.stream().map(Setting::exportLine).toList());
        leftOut.forEach(port -> lines.add("# " + port));
        locality.forEach(gpu -> lines.add("# " + gpu));
        return lines;
    }

    public Setting setting(String name) {
        return settings.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    /**
     * The advice for {@code sample}, restricted to {@code device} when not null. The settings count only the ports
     * NCCL can use; the {@code /etc/nccl.conf} values are checked against the ports NCCL would use under that file
     * ({@link #ncclUses}), which include ports the advice leaves out.
     *
     * @param fleetGidIndex the GID index most RoCE ports of the fleet use; null when unknown
     */
    public static NcclAdvice of(HostSample sample, String device, Integer fleetGidIndex) {
        Map<String, String> conf = sample.ncclConf() == null ? Map.of() : sample.ncclConf();
        NcclIfList confHca = NcclIfList.parse(conf.get(HCA));
        Map<String, IbPort> roce = new LinkedHashMap<>();
        List<String> usable = new ArrayList<>();
        List<String> leftOut = new ArrayList<>();
        List<Candidate> candidates = new ArrayList<>();
        Map<String, IbPort> confUses = new LinkedHashMap<>();
        for (IbDevice d : sample.devices()) {
            if (device != null && !device.equals(d.name())) {
                continue;
            }
            for (IbPort p : d.ports()) {
                PortTransport transport = PortTransport.of(d, p);
                if (transport != PortTransport.ROCE && transport != PortTransport.INFINIBAND) {
                    continue;
                }
                String name = d.name() + ":" + p.port();
                if (!p.isActive()) {
                    leftOut.add(notActive(name, transport, p));
                    continue;
                }
                if (ncclUses(d, p, confHca)) {
                    confUses.put(name, p);
                }
                boolean canUse = transport != PortTransport.ROCE || GidAdvice.ncclGid(p).isPresent();
                candidates.add(new Candidate(d.name(), p.port(), canUse));
                if (!canUse) {
                    leftOut.add(leftOut(name, p));
                    continue;
                }
                usable.add(name);
                if (transport == PortTransport.ROCE) {
                    roce.put(name, p);
                }
            }
        }
        List<String> mismatches = new ArrayList<>(hcaMismatches(confHca, conf.get(HCA), candidates));
        mismatches.addAll(portMismatches(confUses, conf));
        List<Setting> settings = List.of(hca(usable), gidIndex(roce, fleetGidIndex), trafficClass(roce, conf),
                socketIfname(roce));
        return new NcclAdvice(settings, leftOut, mismatches, locality(sample.topology(), device));
    }

    /**
     * Per GPU, the NIC NCCL pairs it with ({@link GpuTopology.Pair#chosen}, the closest path class) and whether NCCL
     * uses GPUDirect RDMA there; restricted to {@code device}'s pairs when not null.
     */
    private static List<String> locality(GpuTopology topology, String device) {
        if (topology == null) {
            return List.of();
        }
        Map<String, List<GpuTopology.Pair>> chosenByGpu = new LinkedHashMap<>();
        for (GpuTopology.Endpoint gpu : topology.gpus()) {
            chosenByGpu.put(gpu.name(), new ArrayList<>());
        }
        for (GpuTopology.Pair pair : topology.pairs()) {
            if (pair.chosen() && (device == null || device.equals(pair.nic()))) {
                chosenByGpu.computeIfAbsent(pair.gpu(), g -> new ArrayList<>()).add(pair);
            }
        }
        List<String> lines = new ArrayList<>();
        chosenByGpu.forEach((gpu, pairs) -> {
            if (pairs.isEmpty()) {
                return;
            }
            String nics = pairs.stream().map(GpuTopology.Pair::nic).collect(Collectors.joining(", "));
            String path = pairs.get(0).path();
            String line = gpu + " pairs with " + nics + " (path " + path + ")";
            if (!GDR_BY_DEFAULT.contains(path)) {
                line += ": NCCL will not use GPUDirect RDMA (" + GDR_LEVEL + " defaults to PXB) and stages through host "
                        + "memory; raising " + GDR_LEVEL + " to " + path + " would push peer-to-peer DMA through the "
                        + (path.equals("SYS") ? "socket interconnect" : "CPU's root complex")
                        + ", which is slow or unsupported: give the GPU's rank a NIC under its own PCIe switch instead";
            } else if (pairs.stream().allMatch(GpuTopology.Pair::ready)) {
                line += ": GPUDirect RDMA ready";
            } else {
                line += ": GPUDirect RDMA " + pairs.stream().filter(p -> !p.ready()).map(p -> p.nic() + " "
                        + p.verdict().replace('_', ' ') + " (" + String.join("; ", p.reasons()) + ")")
                        .collect(Collectors.joining(", "));
            }
            lines.add(line);
        });
        return lines;
    }

    /**
     * What {@code conf}'s {@code NCCL_IB_GID_INDEX} and {@code NCCL_IB_TC} contradict on port {@code port} of
     * {@code device} alone (rule nccl_conf_mismatch), the same sentences {@link #of} gives; empty when NCCL would not
     * use the port under {@code conf} ({@link #ncclUses}). A port the advice leaves out is still checked: nothing but
     * the file's own {@code NCCL_IB_HCA} keeps NCCL off it.
     */
    public static List<String> portMismatches(IbDevice device, IbPort port, Map<String, String> conf) {
        if (conf == null || !port.isActive() || !ncclUses(device, port, NcclIfList.parse(conf.get(HCA)))) {
            return List.of();
        }
        return portMismatches(Map.of(device.name() + ":" + port.port(), port), conf);
    }

    /**
     * Whether NCCL would run RoCE over {@code port} given {@code hca}, the {@code NCCL_IB_HCA} it reads (null: unset,
     * every port): NCCL's IB transport takes every ACTIVE port whose link layer is InfiniBand or Ethernet and that
     * the list selects, whatever its GID table holds; with {@code NCCL_IB_GID_INDEX} set it uses that index on each.
     * Only RoCE ports count here, as only they have GID-index and traffic-class settings to contradict.
     */
    static boolean ncclUses(IbDevice device, IbPort port, NcclIfList hca) {
        return port.isActive() && PortTransport.of(device, port) == PortTransport.ROCE
                && (hca == null || hca.selects(device.name(), port.port()));
    }

    /** An active InfiniBand or RoCE port, and whether NCCL can use it (RoCE: has a RoCE v2 IPv4 GID). */
    private record Candidate(String device, int port, boolean canUse) {
    }

    /** Why NCCL cannot use an active RoCE port, and the fix: RoCE v2 IPv4 GIDs come from the netdev's IPv4 addresses.
     * */
    private static String leftOut(String name, IbPort port) {
        String netdev = port.netdev() == null ? "its netdev" : port.netdev();
        String why = port.gids().stream().anyMatch(GidEntry::isRoceV2)
                ? "no RoCE v2 IPv4 GID, as " + netdev + " has no IPv4 address; assign an IPv4 address to " + netdev
                : "no RoCE v2 GID (RoCE v1 only); enable RoCE v2 on it";
        return name + " left out of " + HCA + " and " + SOCKET_IFNAME + ": " + why + ", or leave the port out";
    }

    /**
     * Why a port that is not ACTIVE is left out (NCCL skips it, and the exact {@code NCCL_IB_HCA} advised would keep
     * it out once it comes up), and the fix.
     */
    private static String notActive(String name, PortTransport transport, IbPort port) {
        String state = port.state() == null || port.state().isBlank() ? "not ACTIVE" : port.state().trim();
        String phys = port.physState() == null || port.physState().isBlank() ? "" : ", physical state " + port.physState().trim();
        String fix;
        if (transport == PortTransport.INFINIBAND && "LinkUp".equalsIgnoreCase(port.physState())) {
            fix = "the link is up but no subnet manager has activated the port; check the subnet manager";
        } else if (transport == PortTransport.ROCE) {
            fix = "bring the link up (cable, switch port, ip link set " + (port.netdev() == null ? "its netdev"
                    : port.netdev()) + " up)";
        } else {
            fix = "bring the link up (cable, switch port)";
        }
        String lists = transport == PortTransport.ROCE ? HCA + " and " + SOCKET_IFNAME : HCA;
        return name + " left out of " + lists + ": the port is " + state + phys + " (NCCL uses ACTIVE ports only); "
                + fix + ", and run nccl-env again, or leave the port out";
    }

    /**
     * {@code NCCL_IB_HCA} of {@code /etc/nccl.conf} against the host: a selecting entry that matches no active port
     * NCCL can use, or an excluding list that leaves none.
     */
    private static List<String> hcaMismatches(NcclIfList hca, String configured, List<Candidate> candidates) {
        if (hca == null) {
            return List.of();
        }
        List<String> mismatches = new ArrayList<>();
        String prefix = HCA + "=" + configured + " in /etc/nccl.conf ";
        if (hca.exclude()) {
            boolean anyUsable = candidates.stream().anyMatch(Candidate::canUse);
            if (anyUsable && candidates.stream().noneMatch(c -> c.canUse() && hca.selects(c.device(), c.port()))) {
                mismatches.add(prefix + "excludes every active RDMA port that NCCL can use on this host");
            }
            return mismatches;
        }
        for (NcclIfList.Entry entry : hca.entries()) {
            if (candidates.stream().noneMatch(c -> c.canUse() && hca.matches(entry, c.device(), c.port()))) {
                String named = entry.toString().chars().anyMatch(Character::isWhitespace) ? "\"" + entry + "\" (NCCL "
                        + "does not trim)" : entry.toString();
                mismatches.add(prefix + "names " + named + ", which has no active RDMA port that NCCL can use on this "
                        + "host");
            }
        }
        return mismatches;
    }

    private static Setting hca(List<String> active) {
        if (active.isEmpty()) {
            return new Setting(HCA, null, "no active RDMA port that NCCL can use on this host");
        }
        return new Setting(HCA, "=" + String.join(",", active), active.size() + " active RDMA port"
                + (active.size() == 1 ? "" : "s") + " (exact match, so no other device is picked)");
    }

    /**
     * The {@code NCCL_IB_GID_INDEX} and {@code NCCL_IB_TC} values of {@code conf} that contradict {@code used}, the
     * RoCE ports NCCL uses under it: a forced GID index that is not a RoCE v2 IPv4 GID on one of them (NCCL takes the
     * index as it is on every port), a ToS whose DSCP one of them maps to a priority without PFC.
     */
    private static List<String> portMismatches(Map<String, IbPort> used, Map<String, String> conf) {
        List<String> mismatches = new ArrayList<>();
        Integer configured = parse(conf.get(GID_INDEX));
        if (configured != null && configured >= 0) {
            List<String> wrong = used.entrySet().stream().filter(e -> e.getValue().gids().stream()
                    .noneMatch(g -> g.index() == configured && g.isRoceV2Ipv4())).map(Map.Entry::getKey).toList();
            if (!wrong.isEmpty()) {
                mismatches.add(GID_INDEX + "=" + conf.get(GID_INDEX) + " in /etc/nccl.conf is not a RoCE v2 IPv4 "
                        + "GID on " + String.join(", ", wrong));
            }
        }
        Integer configuredTc = parse(conf.get(TC));
        if (configuredTc != null && configuredTc >= 0 && configuredTc <= 255) {
            int dscp = configuredTc >> 2;
            for (Map.Entry<String, IbPort> e : used.entrySet()) {
                QosConfig q = e.getValue().qos();
                if (q != null && q.pfc() != null && !q.pfcPriorities().isEmpty()) {
                    Integer prio = priorityOf(q, dscp);
                    if (prio == null || !q.pfc().enabled(prio)) {
                        mismatches.add(TC + "=" + conf.get(TC) + " in /etc/nccl.conf is DSCP " + dscp + ", which "
                                + e.getKey() + " maps to " + (prio == null ? "no priority" : "priority " + prio)
                                + " without PFC");
                    }
                }
            }
        }
        return mismatches;
    }

    private static Setting gidIndex(Map<String, IbPort> roce, Integer fleetGidIndex) {
        Map<String, Integer> byPort = new LinkedHashMap<>();
        roce.forEach((name, port) -> byPort.put(name, GidAdvice.ncclGid(port).orElseThrow().index()));
        if (roce.isEmpty()) {
            return new Setting(GID_INDEX, null, "no active RoCE port with a RoCE v2 IPv4 GID (InfiniBand routes by LID)");
        }
        Set<Integer> indexes = new TreeSet<>(byPort.values());
        if (indexes.size() > 1) {
            return new Setting(GID_INDEX, null, "the RoCE v2 IPv4 GID index differs between ports (" + byPort.entrySet()
                    .stream().map(e -> e.getKey() + " -> " + e.getValue()).collect(Collectors.joining(", "))
                    + "); NCCL 2.21.5+ picks it per port when unset");
        }
        int index = indexes.iterator().next();
        String fleet = fleetGidIndex == null ? "" : fleetGidIndex == index ? "; the fleet agrees"
                : "; the fleet mostly uses " + fleetGidIndex + ", so a fleet-wide value would be wrong here";
        return new Setting(GID_INDEX, Integer.toString(index), "RoCE v2 IPv4 GID on " + String.join(", ", byPort.keySet())
                + fleet);
    }

    private static Setting trafficClass(Map<String, IbPort> roce, Map<String, String> conf) {
        List<QosConfig> configs = roce.values().stream().map(IbPort::qos).filter(q -> q != null && q.pfc() != null).toList();
        Integer configuredTc = parse(conf.get(TC));
        if (configs.isEmpty()) {
            return new Setting(TC, null, "no QoS configuration read on the RoCE ports");
        }
        if (configs.stream().anyMatch(q -> !"dscp".equals(q.trust()))) {
            return new Setting(TC, null, "a RoCE port trusts pcp: untagged RoCE lands on priority 0 whatever the ToS; "
                    + "set trust dscp first (rule qos_trust_not_dscp)");
        }
        if (configs.stream().anyMatch(q -> q.pfcPriorities().isEmpty())) {
            return new Setting(TC, null, "a RoCE port has PFC on no priority (rule pfc_not_enabled)");
        }
        // the DSCP in use first when it is right, else the lowest DSCP every port maps to a PFC priority
        List<Integer> candidates = new ArrayList<>();
        if (configuredTc != null && configuredTc >= 0 && configuredTc <= 255) {
            candidates.add(configuredTc >> 2);
        }
        for (int d = 0; d < 64; d++) {
            candidates.add(d);
        }
        for (int dscp : candidates) {
            Set<Integer> priorities = new LinkedHashSet<>();
            boolean lossless = true;
            for (QosConfig q : configs) {
                Integer prio = q.priorityOfDscp(dscp);
                lossless &= prio != null && q.pfc().enabled(prio);
                priorities.add(prio);
            }
            if (lossless) {
                return new Setting(TC, Integer.toString(dscp * 4), "DSCP " + dscp + " x 4; the DSCP map sends it to PFC priority "
                        + priorities.stream().map(String::valueOf).collect(Collectors.joining("/")));
            }
        }
        return new Setting(TC, null, "no DSCP maps to a PFC priority on every RoCE port (rule roce_dscp_not_lossless)");
    }

    private static Setting socketIfname(Map<String, IbPort> roce) {
        Set<String> netdevs = roce.values().stream().map(IbPort::netdev).filter(n -> n != null)
                .collect(Collectors.toCollection(LinkedHashSet::new));
        if (netdevs.isEmpty()) {
            return new Setting(SOCKET_IFNAME, null, "no RoCE netdev; NCCL tries ib* first, then any interface but "
                    + "docker, lo, virbr");
        }
        return new Setting(SOCKET_IFNAME, "=" + String.join(",", netdevs), "the netdevs of the RoCE ports (they hold "
                + "the IPv4 of their GIDs); unset, NCCL tries ib* and then any interface but docker, lo, virbr");
    }

    /** Where a DSCP lands: its APP entry under trust dscp, priority 0 under trust pcp (untagged). */
    private static Integer priorityOf(QosConfig qos, int dscp) {
        return "dscp".equals(qos.trust()) ? qos.priorityOfDscp(dscp) : Integer.valueOf(0);
    }

    /** A number as NCCL's {@code strtoll(…, 0)} reads it (decimal, 0x hex, 0 octal); null when absent or not one. */
    public static Integer parse(String value) {
        if (value == null) {
            return null;
        }
        String v = value.trim();
        boolean negative = v.startsWith("-");
        String digits = negative ? v.substring(1) : v;
        try {
            long parsed = digits.startsWith("0x") || digits.startsWith("0X") ? Long.parseLong(digits.substring(2), 16)
                    : digits.length() > 1 && digits.startsWith("0") ? Long.parseLong(digits.substring(1), 8)
                    : Long.parseLong(digits);
            parsed = negative ? -parsed : parsed;
            return parsed < Integer.MIN_VALUE || parsed > Integer.MAX_VALUE ? null : (int) parsed;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
