package io.rdmamon.cli.node;

import io.rdmamon.agent.topology.AcsControl;
import io.rdmamon.agent.topology.ConfigFacts;
import io.rdmamon.agent.topology.Endpoint;
import io.rdmamon.agent.topology.GpuChoice;
import io.rdmamon.agent.topology.HostFacts;
import io.rdmamon.agent.topology.PairVerdict;
import io.rdmamon.agent.topology.PciNode;
import io.rdmamon.agent.topology.TopologyReport;
import io.rdmamon.protocol.model.PciFunction;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The JSON of {@code rdmamon topo --json}: endpoints with their bridges, the matrix, the verdicts, the host. */
record TopoJson(List<EndpointJson> gpus, List<EndpointJson> nics, Map<String, Map<String, String>> matrix,
                List<ChoiceJson> choices, List<PairJson> pairs, HostFacts host, List<String> problems) {

    record EndpointJson(String name, String label, String hostBridge, FunctionJson function, List<FunctionJson> bridges) {
    }

    /**
     * One function's facts. {@code configUnknown} set: every config-space fact (ACS, ATS, DevCtl) is unknown and
     * absent here. {@code acs} is the ACS Control bits MSB first (DT EC UF CR RR TB SV), absent without ACS.
     */
    record FunctionJson(String address, String vendor, String device, String pciClass, Integer numaNode,
                        String localCpulist, PciFunction link, Boolean linkDegraded, String configUnknown, String acs,
                        List<String> acsEnabled, Boolean ats, Integer maxPayloadBytes, Integer maxReadRequestBytes,
                        Boolean relaxedOrdering, String iommuGroup, String iommuGroupType) {
    }

    record ChoiceJson(String gpu, List<String> nics, String path, boolean good, String summary) {
    }

    record PairJson(String gpu, String nic, String path, String ncclPath, boolean ncclUsesGdr, List<String> bridges,
                    String verdict, List<String> reasons) {
    }

    static TopoJson of(TopologyReport report) {
        Map<String, Map<String, String>> matrix = new LinkedHashMap<>();
        for (Endpoint row : report.endpoints()) {
            Map<String, String> cells = new LinkedHashMap<>();
            for (Endpoint column : report.endpoints()) {
                cells.put(column.name(), TopologyReport.cell(row, column));
            }
            matrix.put(row.name(), cells);
        }
        return new TopoJson(report.topology().gpus().stream().map(TopoJson::endpoint).toList(),
                report.topology().nics().stream().map(TopoJson::endpoint).toList(), matrix,
                report.choices().stream().map(TopoJson::choice).toList(),
                report.pairs().stream().map(TopoJson::pair).toList(), report.topology().host(),
                report.topology().problems());
    }

    private static EndpointJson endpoint(Endpoint e) {
        return new EndpointJson(e.name(), e.label(), e.hostBridge(), function(e.function()),
                e.bridges().stream().map(TopoJson::function).toList());
    }

    static FunctionJson function(PciNode n) {
        ConfigFacts c = n.config();
        AcsControl acs = c.known() ? c.acs() : null;
        boolean devCtl = c.known() && c.devCtl() != null;
        return new FunctionJson(n.address(), n.vendor(), n.device(), n.pciClass(), n.numaNode(), n.localCpulist(),
                n.link(), n.link() == null ? null : n.linkDegraded(), c.unknown(), acs == null ? null : acs.bits(),
                acs == null ? null : acs.enabled(), c.known() ? c.ats() : null,
                devCtl ? c.devCtl().maxPayloadBytes() : null, devCtl ? c.devCtl().maxReadRequestBytes() : null,
                devCtl ? c.devCtl().relaxedOrdering() : null, n.iommuGroup(), n.iommuGroupType());
    }

    private static ChoiceJson choice(GpuChoice c) {
        return new ChoiceJson(c.gpu(), c.nics(), c.path() == null ? null : c.path().name(), c.good(), c.summary());
    }

    private static PairJson pair(PairVerdict p) {
        return new PairJson(p.gpu(), p.nic(), p.path().name(), p.path().nccl(), p.path().ncclUsesGdrByDefault(),
                p.bridges(), p.verdict().text(), p.reasons());
    }
}
