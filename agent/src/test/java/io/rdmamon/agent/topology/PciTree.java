package io.rdmamon.agent.topology;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Test fixture builder: writes a sysfs-like PCI tree below a host root, as the kernel lays it out
 * ({@code sys/devices/pci0000:17/0000:17:01.0/0000:18:00.0/0000:19:00.0}), with the links
 * {@code sys/bus/pci/devices/<bdf>}, {@code sys/class/infiniband/<dev>/device} and {@code iommu_group}, and binary
 * {@code config} files holding a standard capability list (power management, PCI Express with DevCtl) and an
 * extended one (AER, then ACS and ATS when asked).
 */
public final class PciTree {
    /** DevCtl: CorrErr+ NonFatalErr+ FatalErr+ UnsupReq+ RlxdOrd+ ExtTag+ NoSnoop+ MaxPayload 256 MaxReadReq 4096. */
    public static final int DEVCTL_RO_ON = 0x593F;
    /** The same with RlxdOrd-. */
    public static final int DEVCTL_RO_OFF = DEVCTL_RO_ON & ~0x10;
    /** DevCtl of a bridge: MaxPayload 256, MaxReadReq 512, RlxdOrd+. */
    public static final int DEVCTL_BRIDGE = 0x2030;
    /** ACS Control with everything P2P-relevant off (what rdma_topo wants on bare metal). */
    public static final int ACS_OFF = 0x00;
    /** ACS Control as Linux sets it with a translating IOMMU: SV, RR, CR, UF ({@code 0011101}). */
    public static final int ACS_REDIRECT = 0x1D;

    private final Path root;

    public PciTree(Path root) {
        this.root = root;
    }

    public Path root() {
        return root;
    }

    /** A host bridge ({@code pci0000:17}) on a NUMA node with its CPUs. */
    public Fn hostBridge(String name, int numaNode, String cpulist) {
        return new Fn(root.resolve("sys/devices").resolve(name), null, numaNode, cpulist);
    }

    public PciTree peermem() {
        write(root.resolve("sys/module/nvidia_peermem/version"), "1.0\n");
        return this;
    }

    public PciTree cmdline(String line) {
        write(root.resolve("proc/cmdline"), line + "\n");
        return this;
    }

    public PciTree nvidiaDriver(String firstLine) {
        write(root.resolve("proc/driver/nvidia/version"), firstLine + "\nGCC version:  gcc version 12.2.0\n");
        return this;
    }

    /** A host bridge or a PCI function, to hang functions below. */
    public final class Fn {
        private final Path dir;
        private final String address;
        private final int numaNode;
        private final String cpulist;

        private Fn(Path dir, String address, int numaNode, String cpulist) {
            this.dir = dir;
            this.address = address;
            this.numaNode = numaNode;
            this.cpulist = cpulist;
            mkdirs(dir);
        }

        public Path dir() {
            return dir;
        }

        public String address() {
            return address;
        }

        /** A bridge (root port or switch port, class 0x060400) linked at {@code speed} x{@code width}. */
        public Fn bridge(String address, String speed, int width, Integer acs) {
            return function(address, "0x8086", "0x352a", "0x060400", speed, speed, width, width,
                    PciTree.config().devCtl(DEVCTL_BRIDGE).acs(acs));
        }

        /** An NVIDIA H100-class GPU (class 0x030200) at Gen5 x16. */
        public Fn gpu(String address) {
            return function(address, "0x10de", "0x2330", "0x030200", "32.0 GT/s PCIe", "32.0 GT/s PCIe", 16, 16,
                    PciTree.config().devCtl(0x2930));
        }

        /** A ConnectX-7 function (class 0x020700) at Gen5 x16, relaxed ordering on, and its RDMA device. */
        public Fn nic(String address, String ibDevice) {
            Fn fn = function(address, "0x15b3", "0x1021", "0x020700", "32.0 GT/s PCIe", "32.0 GT/s PCIe", 16, 16,
                    PciTree.config().devCtl(DEVCTL_RO_ON).ats(true));
            fn.ibDevice(ibDevice);
            return fn;
        }

        /** Any function. */
        public Fn function(String address, String vendor, String device, String cls, String curSpeed, String maxSpeed,
                           int curWidth, int maxWidth, Config config) {
            Fn fn = new Fn(dir.resolve(address), address, numaNode, cpulist);
            fn.file("vendor", vendor);
            fn.file("device", device);
            fn.file("class", cls);
            fn.file("numa_node", Integer.toString(numaNode));
            fn.file("local_cpulist", cpulist);
            fn.file("current_link_speed", curSpeed);
            fn.file("max_link_speed", maxSpeed);
            fn.file("current_link_width", Integer.toString(curWidth));
            fn.file("max_link_width", Integer.toString(maxWidth));
            fn.config(config.vendor(vendor).device(device).cls(cls));
            symlink(root.resolve("sys/bus/pci/devices").resolve(address), fn.dir);
            return fn;
        }

        public Fn file(String name, String content) {
            write(dir.resolve(name), content + "\n");
            return this;
        }

        public Fn config(Config config) {
            try {
                Files.write(dir.resolve("config"), config.bytes());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return this;
        }

        public Fn link(String currentSpeed, int currentWidth) {
            file("current_link_speed", currentSpeed);
            return file("current_link_width", Integer.toString(currentWidth));
        }

        public Fn ibDevice(String name) {
            Path dev = root.resolve("sys/class/infiniband").resolve(name);
            mkdirs(dev);
            write(dev.resolve("node_type"), "1: CA\n");
            symlink(dev.resolve("device"), dir);
            return this;
        }

        public Fn iommuGroup(int group, String type) {
            Path groupDir = root.resolve("sys/kernel/iommu_groups").resolve(Integer.toString(group));
            write(groupDir.resolve("type"), type + "\n");
            symlink(dir.resolve("iommu_group"), groupDir);
            return this;
        }
    }

    public static Config config() {
        return new Config();
    }

    /** A {@code config} file ({@link ConfigImage}): 4096 bytes with the capability lists, or its first bytes. */
    public static final class Config {
        private String vendor = "0x0000";
        private String device = "0x0000";
        private String cls = "0x000000";
        private Integer devCtl;
        private Integer acs;
        private boolean ats;
        private int readable = 4096;

        public Config vendor(String v) {
            vendor = v;
            return this;
        }

        public Config device(String d) {
            device = d;
            return this;
        }

        public Config cls(String c) {
            cls = c;
            return this;
        }

        /** A PCI Express capability with this Device Control (null: no PCI Express capability). */
        public Config devCtl(Integer value) {
            devCtl = value;
            return this;
        }

        /** An ACS capability with this control register (null: none). */
        public Config acs(Integer control) {
            acs = control;
            return this;
        }

        public Config ats(boolean present) {
            ats = present;
            return this;
        }

        /** Only the first {@code bytes} readable (64: what an unprivileged read gets). */
        public Config readable(int bytes) {
            readable = bytes;
            return this;
        }

        public byte[] bytes() {
            return new ConfigImage().vendor(Integer.decode(vendor)).device(Integer.decode(device))
                    .pciClass(Integer.decode(cls)).devCtl(devCtl).acs(acs).ats(ats).readable(readable).bytes();
        }
    }

    private static void mkdirs(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Path file, String content) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void symlink(Path link, Path target) {
        try {
            Files.createDirectories(link.getParent());
            Files.deleteIfExists(link);
            Files.createSymbolicLink(link, link.getParent().relativize(target));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
