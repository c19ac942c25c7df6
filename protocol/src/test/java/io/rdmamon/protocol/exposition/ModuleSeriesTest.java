package io.rdmamon.protocol.exposition;

import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.FecMode;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.TransceiverModule;
import io.rdmamon.protocol.model.TransceiverModule.Lane;
import io.rdmamon.protocol.model.TransceiverModule.Limits;
import io.rdmamon.protocol.model.TransceiverModule.Thresholds;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code rdma_module_*}: identity as info, readings per lane in base units, the module's own thresholds. */
class ModuleSeriesTest {

    @Test
    void moduleSeriesOfAPort() throws IOException {
        TransceiverModule module = new TransceiverModule("CMIS", 0x18, "QSFP-DD", "Eoptolink", "EOLD-168HG-10-1", "01",
                "DR4R030015", "250428", 49.75, 3.3173, List.of(new Lane(1, 2.4581e-3, 1.4866e-3, 0.1102),
                new Lane(2, null, 1.5710e-3, null)),
                new Thresholds(null, null, new Limits(5.7544e-3, 7.08e-5, 4.5709e-3, 8.91e-5), null, null), List.of());
        IbPort port = IbPort.builder().port(1).stateId(4).state("ACTIVE").physStateId(5).physState("LinkUp")
                .linkLayer("Ethernet").lid("0x0").netdev("ens2np0").module(module).build();
        String text = render(port);

        assertEquals(List.of(
                "rdma_module_info{device=\"mlx5_2\",node=\"h1\",part=\"EOLD-168HG-10-1\",port=\"1\",serial=\"DR4R030015\",type=\"QSFP-DD\",vendor=\"Eoptolink\"} 1",
                "rdma_module_rx_power_threshold_watts{device=\"mlx5_2\",node=\"h1\",port=\"1\",threshold=\"high_alarm\"} 0.0057544",
                "rdma_module_rx_power_threshold_watts{device=\"mlx5_2\",node=\"h1\",port=\"1\",threshold=\"high_warning\"} 0.0045709",
                "rdma_module_rx_power_threshold_watts{device=\"mlx5_2\",node=\"h1\",port=\"1\",threshold=\"low_alarm\"} 7.08E-5",
                "rdma_module_rx_power_threshold_watts{device=\"mlx5_2\",node=\"h1\",port=\"1\",threshold=\"low_warning\"} 8.91E-5",
                "rdma_module_rx_power_watts{device=\"mlx5_2\",lane=\"1\",node=\"h1\",port=\"1\"} 0.0024581",
                "rdma_module_temperature_celsius{device=\"mlx5_2\",node=\"h1\",port=\"1\"} 49.75",
                "rdma_module_tx_bias_amperes{device=\"mlx5_2\",lane=\"1\",node=\"h1\",port=\"1\"} 0.1102",
                "rdma_module_tx_power_watts{device=\"mlx5_2\",lane=\"1\",node=\"h1\",port=\"1\"} 0.0014866",
                "rdma_module_tx_power_watts{device=\"mlx5_2\",lane=\"2\",node=\"h1\",port=\"1\"} 0.001571",
                "rdma_module_voltage_volts{device=\"mlx5_2\",node=\"h1\",port=\"1\"} 3.3173"),
                text.lines().filter(l -> l.startsWith("rdma_module")).sorted().toList());
    }

    /** {@code rdma_port_fec_info}: the active encoding ("None" when none is active) and the configured ones. */
    @Test
    void fecInfoOfAPortAndNoneWithoutAnEncodingRead() throws IOException {
        IbPort rs = IbPort.builder().port(1).stateId(4).state("ACTIVE").physStateId(5).physState("LinkUp")
                .linkLayer("Ethernet").lid("0x0").netdev("ens2np0").fec(new FecMode("RS", List.of("Auto", "RS")))
                .build();
        IbPort idle = IbPort.builder().port(1).stateId(1).state("DOWN").physStateId(3).physState("Disabled")
                .linkLayer("Ethernet").lid("0x0").netdev("ens2np0").fec(new FecMode(null, List.of("Auto"))).build();
        IbPort unread = IbPort.builder().port(1).stateId(4).state("ACTIVE").physStateId(5).physState("LinkUp")
                .linkLayer("Ethernet").lid("0x0").netdev("ens2np0").build();

        assertEquals(List.of("rdma_port_fec_info{active=\"RS\",configured=\"Auto RS\",device=\"mlx5_2\",node=\"h1\",port=\"1\"} 1"),
                render(rs).lines().filter(l -> l.startsWith("rdma_port_fec")).toList());
        assertEquals(List.of("rdma_port_fec_info{active=\"None\",configured=\"Auto\",device=\"mlx5_2\",node=\"h1\",port=\"1\"} 1"),
                render(idle).lines().filter(l -> l.startsWith("rdma_port_fec")).toList());
        assertEquals(List.of(), render(unread).lines().filter(l -> l.startsWith("rdma_port_fec")).toList());
    }

    private static String render(IbPort port) throws IOException {
        HostSample sample = new HostSample("h1", 1000, List.of(new IbDevice("mlx5_2", 1, "CA", null, null, "x", null,
                null, List.of(port))), List.of());
        ExpositionAssembler assembler = new ExpositionAssembler();
        assembler.add(new NodeRenderer().render("h1", sample));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assembler.write(out, ExpositionFormat.PROMETHEUS_TEXT);
        return out.toString(StandardCharsets.UTF_8);
    }
}
