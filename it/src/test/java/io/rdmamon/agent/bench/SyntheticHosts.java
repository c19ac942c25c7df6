package io.rdmamon.agent.bench;

import io.rdmamon.agent.host.HostReader;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Hosts of any size made of a real host's ports: {@link EightPortHost} read by {@link HostReader}, its first port
 * copied to {@code devices × portsPerDevice} ports, whole (counters, hw counters, ethtool statistics, GIDs: an mlx5
 * RoCE port) or lean (only its {@code counters/}, as a small IB port).
 */
final class SyntheticHosts {
    private SyntheticHosts() {
    }

    /** The eight-port mlx5 host, read once. */
    static HostSample eightPortHost() throws IOException {
        Path work = Files.createTempDirectory("rdmamon-synthetic-host");
        try {
            return HostReader.forRoot(EightPortHost.build(work)).read("template");
        } finally {
            EightPortHost.deleteTree(work);
        }
    }

    /** {@code template}'s first port copied to {@code devices} devices of {@code portsPerDevice} ports each. */
    static HostSample of(HostSample template, int devices, int portsPerDevice, boolean lean) {
        IbDevice first = template.devices().get(0);
        IbPort model = first.ports().get(0);
        List<IbDevice> out = new ArrayList<>();
        for (int d = 0; d < devices; d++) {
            List<IbPort> ports = new ArrayList<>();
            for (int p = 1; p <= portsPerDevice; p++) {
                ports.add(lean ? IbPort.builder().port(p).stateId(model.stateId()).state(model.state())
                        .physStateId(model.physStateId()).physState(model.physState()).rate(model.rate())
                        .rateBytesPerSecond(model.rateBytesPerSecond()).linkLayer(model.linkLayer()).lid(model.lid())
                        .counters(model.counters()).build()
                        : model.toBuilder().port(p).build());
            }
            out.add(new IbDevice("mlx5_" + d, first.nodeTypeId(), first.nodeType(), first.nodeGuid(),
                    first.sysImageGuid(), first.fwVersion(), first.hcaType(), first.boardId(), ports, first.pci()));
        }
        return new HostSample(template.node(), template.timestampMillis(), out, template.sources(), template.ncclConf());
    }
}
