package io.rdmamon.agent.sysfs;

import io.rdmamon.agent.sysfs.SysfsFiles.Failure;
import io.rdmamon.protocol.model.PciFunction;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The PCI function of an RDMA device (docs/reference/physical-layer.md §5.2): {@code realpath(<dev>/device)}, walked up
 * to the first
 * directory named like a PCI address (a virtio-net's {@code device} is {@code virtioN}, below its PCI function),
 * never above the host root. A capture made by following links ({@code tar -h}, {@code cp -rL}) has {@code device} as
 * a copy of the function's directory, named {@code device}: then its {@code uevent}'s {@code PCI_SLOT_NAME} gives the
 * address. A VF ({@code physfn} link, or copy) has its link and AER files read from its PF.
 */
public final class PciFunctionReader {
    private static final Set<Failure> TOLERATE_ABSENT = EnumSet.of(Failure.ABSENT, Failure.NO_VALUE);

    private final Path hostRoot;
    private final NetdevResolver.AttributeReader reader;

    PciFunctionReader(Path hostRoot, NetdevResolver.AttributeReader reader) {
        this.hostRoot = hostRoot;
        this.reader = reader;
    }

    /**
     * A reader for other readers of the PCI tree (the GPU/NIC topology): {@code files} reads each attribute, an
     * absent one or one without a value is null, any other failure a problem.
     */
    public PciFunctionReader(Path hostRoot, SmallFileReader files) {
        this(hostRoot, (file, problems, tolerated) -> problems.read(files, file, tolerated));
    }

    /**
     * What changes only when the link retrains: the function's address, its PF and the link speed and width. The
     * agent keeps it on the slow cadence (re-read at once when a port changes state); null when no function is found
     * (no {@code device} link, a capture).
     */
    PciLink readLink(Path deviceDir, ReadProblems problems) {
        PciDir function = pciDir(deviceDir.resolve("device"), problems);
        if (function == null) {
            return null;
        }
        PciDir pf = pciDir(function.dir().resolve("physfn"), problems);
        PciDir linkFrom = pf == null ? function : pf;
        return new PciLink(linkFrom.dir(), functionLink(function.address(), pf == null ? null : pf.address(),
                linkFrom, problems));
    }

    /**
     * The link of the function in {@code dir} (a bridge, a GPU: no {@code physfn} to follow): its speed and width,
     * current and max, as {@link #readLink} reads them, without AER totals.
     */
    public PciFunction readFunctionLink(PciDir dir, ReadProblems problems) {
        return functionLink(dir.address(), null, dir, problems);
    }

    private PciFunction functionLink(String address, String physfn, PciDir linkFrom, ReadProblems problems) {
        Path linkDir = linkFrom.dir();
        String currentSpeed = text(linkDir.resolve("current_link_speed"), problems);
        String maxSpeed = text(linkDir.resolve("max_link_speed"), problems);
        String currentWidth = text(linkDir.resolve("current_link_width"), problems);
        String maxWidth = text(linkDir.resolve("max_link_width"), problems);
        List<String> notes = currentSpeed == null && maxSpeed == null && currentWidth == null && maxWidth == null
                ? List.of("no PCIe link attributes (current_link_speed absent: not a PCI Express function)")
                : List.of();
        return new PciFunction(address, physfn, linkFrom.address(), currentSpeed, maxSpeed,
                problems.parse(linkDir.resolve("current_link_speed"), currentSpeed, PciParsers::parseLinkSpeed),
                problems.parse(linkDir.resolve("max_link_speed"), maxSpeed, PciParsers::parseLinkSpeed),
                problems.parse(linkDir.resolve("current_link_width"), currentWidth, PciParsers::parseLinkWidth),
                problems.parse(linkDir.resolve("max_link_width"), maxWidth, PciParsers::parseLinkWidth),
                Map.of(), notes);
    }

    /**
     * {@code link}'s function with its AER totals, read on every sample: an error counter must not wait for the slow
     * cadence (null link: null).
     */
    PciFunction withAer(PciLink link, ReadProblems problems) {
        if (link == null) {
            return null;
        }
        Map<String, Long> aer = new LinkedHashMap<>();
        for (String severity : PciFunction.AER_SEVERITIES) {
            Path file = link.dir().resolve("aer_dev_" + severity);
            Long total = problems.parse(file, text(file, problems), PciParsers::parseAerTotal);
            if (total != null) {
                aer.put(severity, total);
            }
        }
        PciFunction function = link.function();
        if (!aer.isEmpty()) {
            return function.withAerErrors(aer);
        }
        List<String> notes = new ArrayList<>(function.notes());
        notes.add("no AER counters (aer_dev_* absent: no AER capability, or a kernel without CONFIG_PCIEAER)");
        return new PciFunction(function.address(), function.physfn(), function.linkFrom(), function.currentLinkSpeed(),
                function.maxLinkSpeed(), function.currentLinkSpeedTransfersPerSecond(),
                function.maxLinkSpeedTransfersPerSecond(), function.currentLinkWidth(), function.maxLinkWidth(),
                aer, notes);
    }

    /** A function's link as read on the slow cadence, and the directory its AER files are in (the PF's for a VF). */
    record PciLink(Path dir, PciFunction function) {
    }

    /** A PCI function's directory (its real path) and its address. */
    public record PciDir(Path dir, String address) {
    }

    /**
     * The function {@code link} leads to: the nearest directory at or above its real path named like a PCI address,
     * within the host root; else that real path itself when its {@code uevent} names an address (a copy made by
     * following links); null when neither (no such file, a capture without either).
     */
    public PciDir pciDir(Path link, ReadProblems problems) {
        if (!Files.exists(link)) {
            return null;
        }
        Path real;
        Path root;
        try {
            real = link.toRealPath();
            root = hostRoot.toRealPath();
        } catch (IOException e) {
            problems.add(link, SysfsFiles.describe(e));
            return null;
        }
        for (Path dir = real; dir != null && dir.startsWith(root) && !dir.equals(root); dir = dir.getParent()) {
            if (PciParsers.ADDRESS.matcher(dir.getFileName().toString()).matches()) {
                return new PciDir(dir, dir.getFileName().toString());
            }
        }
        Path uevent = real.resolve("uevent");
        String address = problems.parse(uevent, text(uevent, problems), PciParsers::parseUeventSlotName);
        return address == null ? null : new PciDir(real, address);
    }

    private String text(Path file, ReadProblems problems) {
        String text = reader.read(file, problems, TOLERATE_ABSENT);
        return text == null || text.isEmpty() ? null : text;
    }
}
