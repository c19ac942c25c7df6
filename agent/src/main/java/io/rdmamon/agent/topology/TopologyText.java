package io.rdmamon.agent.topology;

import io.rdmamon.agent.sysfs.ProblemText;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Pure parsers of the topology's text files. */
public final class TopologyText {
    /** {@code mlx5_2} before {@code mlx5_10}: digit runs compared as numbers. */
    public static final Comparator<String> NATURAL = TopologyText::compareNatural;
    private static final Pattern DIGITS = Pattern.compile("\\d+|\\D+");

    private TopologyText() {
    }

    /**
     * A GPU: PCI class 0x0300xx (VGA) or 0x0302xx (3D controller) with NVIDIA's (0x10de) or AMD's (0x1002) vendor id.
     */
    public static boolean isGpu(String pciClass, String vendor) {
        if (pciClass == null || vendor == null) {
            return false;
        }
        String cls = pciClass.toLowerCase();
        String v = vendor.toLowerCase();
        return (cls.startsWith("0x0300") || cls.startsWith("0x0302")) && (v.equals("0x10de") || v.equals("0x1002"));
    }

    /** {@code numa_node}: the node, null for −1 (the platform reports none). */
    public static Integer parseNumaNode(String text) {
        int node;
        try {
            node = Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected a NUMA node number or -1, got " + ProblemText.quote(text));
        }
        if (node < -1) {
            throw new IllegalArgumentException("expected a NUMA node number or -1, got " + ProblemText.quote(text));
        }
        return node == -1 ? null : node;
    }

    /**
     * The IOMMU and PCI settings of a kernel command line, in order: {@code iommu=}, {@code intel_iommu=},
     * {@code amd_iommu=}, {@code iommu.passthrough=}, {@code iommu.strict=}, {@code pci=}, {@code pcie_acs_override=}
     * (none for a null line).
     */
    public static List<String> cmdlineSettings(String cmdline) {
        List<String> settings = new ArrayList<>();
        if (cmdline == null) {
            return settings;
        }
        for (String word : cmdline.strip().split("\\s+")) {
            if (word.startsWith("iommu=") || word.startsWith("intel_iommu=") || word.startsWith("amd_iommu=")
                    || word.startsWith("iommu.") || word.startsWith("pci=") || word.startsWith("pcie_acs_override=")) {
                settings.add(word);
            }
        }
        return settings;
    }

    static int compareNatural(String a, String b) {
        Matcher ma = DIGITS.matcher(a);
        Matcher mb = DIGITS.matcher(b);
        while (ma.find() && mb.find()) {
            String pa = ma.group();
            String pb = mb.group();
            int c;
            if (Character.isDigit(pa.charAt(0)) && Character.isDigit(pb.charAt(0))) {
                c = Long.compare(Long.parseLong(pa.length() > 18 ? pa.substring(0, 18) : pa),
                        Long.parseLong(pb.length() > 18 ? pb.substring(0, 18) : pb));
            } else {
                c = pa.compareTo(pb);
            }
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.length(), b.length()) != 0 ? Integer.compare(a.length(), b.length()) : a.compareTo(b);
    }
}
