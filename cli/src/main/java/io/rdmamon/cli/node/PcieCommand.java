package io.rdmamon.cli.node;

import io.rdmamon.agent.host.HostReader;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.PciFunction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.Callable;

/** {@code rdmamon pcie}: the PCI function of each RDMA device, its link against its maximum, its AER totals. */
@Command(name = "pcie",
        description = "PCIe health of each device's PCI function: current vs max link speed and width, AER error "
                + "totals (like lspci -vv LnkSta/LnkCap and the aer_dev_* files).")
public final class PcieCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    HostRootOption hostRoot;

    @Mixin
    DeviceFilterOption deviceFilter;

    @Option(names = "--json", description = "Print JSON instead of text.")
    boolean json;

    /** One device's line of the report; {@code pci} null when no PCI function was found. */
    public record Report(String device, PciFunction pci, Boolean degraded) {
    }

    @Override
    public Integer call() {
        HostReader reader = deviceFilter.open(hostRoot);
        List<IbDevice> devices = Subjects.select(reader.read(NodeName.ofThisHost()), deviceFilter.device());
        var out = spec.commandLine().getOut();
        if (json) {
            out.println(JsonOutput.write(devices.stream()
                    .map(d -> new Report(d.name(), d.pci(), d.pci() == null ? null : d.pci().degraded())).toList()));
        } else {
            devices.forEach(d -> out.print(text(d)));
        }
        out.flush();
        return 0;
    }

    static String text(IbDevice device) {
        PciFunction pci = device.pci();
        if (pci == null) {
            return device.name() + "\tno PCI function (sys/class/infiniband/" + device.name()
                    + "/device is no link to a PCI address and has no PCI_SLOT_NAME in its uevent)\n";
        }
        StringBuilder text = new StringBuilder(device.name()).append('\t').append(pci.address()).append('\n');
        if (pci.physfn() != null) {
            text.append("\tphysfn:\t").append(pci.physfn()).append(" (link and AER read there)\n");
        }
        if (pci.currentLinkSpeed() != null || pci.currentLinkWidth() != null || pci.maxLinkWidth() != null) {
            text.append("\tlink:\t").append(link(pci.currentLinkSpeed(), pci.currentLinkWidth())).append(" (max ")
                    .append(link(pci.maxLinkSpeed(), pci.maxLinkWidth())).append(')')
                    .append(pci.degraded() ? "  DEGRADED" : "").append('\n');
        }
        if (!pci.aerErrors().isEmpty()) {
            StringJoiner aer = new StringJoiner(", ");
            pci.aerErrors().forEach((severity, total) -> aer.add(severity + " " + Long.toUnsignedString(total)));
            text.append("\taer:\t").append(aer).append('\n');
        }
        pci.notes().forEach(note -> text.append("\tnote:\t").append(note).append('\n'));
        return text.toString();
    }

    private static String link(String speed, Integer width) {
        return (speed == null ? "speed ?" : speed) + " x" + (width == null ? "?" : width);
    }
}
