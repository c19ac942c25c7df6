package io.rdmamon.agent.topology;

import io.rdmamon.protocol.model.PciFunction;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The GPUDirect RDMA verdict of every GPU↔NIC pair and the NIC(s) NCCL would pick for each GPU (pure: a function of
 * {@link HostTopology}). The rules and their sources are in docs/topology.md and
 * docs/reference/pingmesh-workloads-topology.md §3:
 * <ul>
 *   <li>not_ready: the path is farther than PXB (NCCL's default {@code NCCL_NET_GDR_LEVEL}); ACS P2P Request or
 *       Completion Redirect or Upstream Forwarding on a bridge of a PIX/PXB path; an NVIDIA GPU with neither a
 *       peer-memory module nor the open kernel modules (DMA-BUF);</li>
 *   <li>degraded: a link on the path trained below its maximum (NCCL sees only the maximum); relaxed ordering off
 *       in the NIC's DevCtl; an IOMMU group that translates (DMA, DMA-FQ); ACS Source Validation on a bridge of the
 *       path; and any fact of the path that could not be read ({@code unknown: …}), as absent is not fine.</li>
 * </ul>
 */
public final class TopologyVerdicts {
    private TopologyVerdicts() {
    }

    /** Every pair, GPUs in order, NICs in order within each. */
    public static List<PairVerdict> pairs(HostTopology topology) {
        List<PairVerdict> pairs = new ArrayList<>();
        for (Endpoint gpu : topology.gpus()) {
            for (Endpoint nic : topology.nics()) {
                pairs.add(verdict(gpu, nic, topology.host()));
            }
        }
        return pairs;
    }

    /** One pair's verdict with every reason. */
    public static PairVerdict verdict(Endpoint gpu, Endpoint nic, HostFacts host) {
        PathClassifier.PairPath path = PathClassifier.classify(gpu, nic);
        List<String> notReady = new ArrayList<>();
        List<String> degraded = new ArrayList<>();
        Set<String> unknown = new LinkedHashSet<>();
        PathType type = path.type();
        boolean gdrPath = type.ncclUsesGdrByDefault();
        if (!gdrPath) {
            notReady.add(gpu.name() + "↔" + nic.name() + " path " + type
                    + (type.nccl().equals(type.name()) ? "" : " (" + type.nccl() + " to NCCL)")
                    + ": NCCL will not use GPUDirect RDMA (NCCL_NET_GDR_LEVEL default PXB)");
        }
        if (gdrPath) {
            for (PciNode bridge : path.bridges()) {
                ConfigFacts config = bridge.config();
                if (!config.known()) {
                    unknown.add("unknown: ACS of bridge " + bridge.address() + ": " + config.unknown());
                    continue;
                }
                AcsControl acs = config.acs();
                if (acs == null) {
                    continue;
                }
                List<String> redirect = new ArrayList<>();
                if (acs.requestRedirect()) {
                    redirect.add("P2P Request Redirect");
                }
                if (acs.completionRedirect()) {
                    redirect.add("P2P Completion Redirect");
                }
                if (acs.upstreamForwarding()) {
                    redirect.add("Upstream Forwarding");
                }
                if (!redirect.isEmpty()) {
                    notReady.add("ACS " + String.join(" and ", redirect) + " on bridge " + bridge.address()
                            + ": P2P goes up through the root complex");
                }
                if (acs.sourceValidation()) {
                    degraded.add("ACS Source Validation on bridge " + bridge.address()
                            + " (rdma_topo wants it off on bare metal)");
                }
            }
        }
        if (gpu.nvidia() && host.peermem().isEmpty() && !host.openKernelModules()) {
            notReady.add("no nvidia_peermem and no DMA-BUF: sys/module/nvidia_peermem and "
                    + "sys/kernel/mm/memory_peers/nv_mem* are absent and "
                    + (host.nvidiaDriver() == null ? "proc/driver/nvidia/version is absent"
                    : "proc/driver/nvidia/version names no open kernel module"));
        }
        linkReason(gpu.name(), gpu.function(), degraded);
        linkReason(nic.name(), nic.function(), degraded);
        for (PciNode bridge : path.bridges()) {
            linkReason("bridge", bridge, degraded);
        }
        ConfigFacts nicConfig = nic.function().config();
        if (!nicConfig.known()) {
            unknown.add("unknown: relaxed ordering, MPS/MRRS, ATS of " + nic.name() + " " + nic.function().address()
                    + ": " + nicConfig.unknown());
        } else if (nicConfig.devCtl() != null && !nicConfig.devCtl().relaxedOrdering()) {
            degraded.add("relaxed ordering off in the DevCtl of " + nic.name() + " " + nic.function().address());
        }
        if (!gpu.function().config().known()) {
            unknown.add("unknown: MPS/MRRS, ATS of " + gpu.name() + " " + gpu.function().address() + ": "
                    + gpu.function().config().unknown());
        }
        iommuReason(gpu.name(), gpu.function(), degraded);
        iommuReason(nic.name(), nic.function(), degraded);
        List<String> reasons = new ArrayList<>(notReady);
        reasons.addAll(degraded);
        reasons.addAll(unknown);
        Verdict verdict = !notReady.isEmpty() ? Verdict.NOT_READY
                : !degraded.isEmpty() || !unknown.isEmpty() ? Verdict.DEGRADED : Verdict.READY;
        return new PairVerdict(gpu.name(), nic.name(), type,
                path.bridges().stream().map(PciNode::address).toList(), verdict, reasons);
    }

    /** For each GPU the closest NIC(s) and whether that pairing is good. */
    public static List<GpuChoice> choices(HostTopology topology, List<PairVerdict> pairs) {
        List<GpuChoice> choices = new ArrayList<>();
        for (Endpoint gpu : topology.gpus()) {
            List<PairVerdict> own = pairs.stream().filter(p -> p.gpu().equals(gpu.name())).toList();
            if (own.isEmpty()) {
                choices.add(new GpuChoice(gpu.name(), List.of(), null, false, gpu.name() + ": no RDMA device"));
                continue;
            }
            PathType best = own.stream().map(PairVerdict::path).min(Enum::compareTo).orElseThrow();
            List<PairVerdict> closest = own.stream().filter(p -> p.path() == best).toList();
            boolean good = best.ncclUsesGdrByDefault() && closest.stream().allMatch(PairVerdict::ready);
            List<String> nics = closest.stream().map(PairVerdict::nic).toList();
            String judgement;
            if (good) {
                judgement = "good";
            } else if (!best.ncclUsesGdrByDefault()) {
                judgement = "bad: no NIC within PXB, NCCL will not use GPUDirect RDMA"
                        + (best == PathType.SYS ? " and crosses the CPU interconnect" : "");
            } else {
                Verdict worst = closest.stream().map(PairVerdict::verdict).max(Enum::compareTo).orElseThrow();
                judgement = "bad: " + worst;
            }
            choices.add(new GpuChoice(gpu.name(), nics, best, good,
                    gpu.name() + " → " + String.join(", ", nics) + " (" + best + "): " + judgement));
        }
        return choices;
    }

    private static void linkReason(String what, PciNode node, List<String> degraded) {
        if (!node.linkDegraded()) {
            return;
        }
        PciFunction link = node.link();
        degraded.add("link of " + what + " " + node.address() + " trained " + link(link.currentLinkSpeed(),
                link.currentLinkWidth()) + ", max " + link(link.maxLinkSpeed(), link.maxLinkWidth())
                + " (NCCL sees only the maximum)");
    }

    private static void iommuReason(String what, PciNode node, List<String> degraded) {
        if (node.iommuTranslated()) {
            degraded.add("IOMMU group " + node.iommuGroup() + " of " + what + " " + node.address() + " is "
                    + node.iommuGroupType() + " (translated): DMA and P2P are remapped by the IOMMU; iommu=pt gives identity");
        }
    }

    private static String link(String speed, Integer width) {
        return (speed == null ? "?" : speed) + " x" + (width == null ? "?" : width);
    }
}
