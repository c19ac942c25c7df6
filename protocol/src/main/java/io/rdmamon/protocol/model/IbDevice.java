package io.rdmamon.protocol.model;

import java.util.List;

/**
 * {@code /sys/class/infiniband/<name>/}: one RDMA device.
 *
 * @param name         directory name, e.g. {@code mlx5_0}, {@code erdma_0}
 * @param nodeTypeId   node_type id (1 CA, 4 RNIC, ...); 0 when unreadable
 * @param nodeType     node_type name ({@code CA}, {@code RNIC}, ...); null when unreadable
 * @param nodeGuid     node_guid, {@code xxxx:xxxx:xxxx:xxxx}; null when absent
 * @param sysImageGuid sys_image_guid; null when absent
 * @param fwVersion    fw_ver; null when absent
 * @param hcaType      hca_type (mlx only, e.g. {@code MT4123}); null when absent
 * @param boardId      board_id (mlx only, the PSID); null when absent
 * @param ports        ports sorted by number
 * @param pci          the device's PCI function; null when none was found (a capture without {@code device} link,
 *                     a software device)
 * @param resources    the resource summary and QP list from RDMA netlink; null when not read (a captured host root,
 *                     a kernel without RDMA netlink, a failed read, or an agent before they were carried)
 */
public record IbDevice(
        String name,
        int nodeTypeId,
        String nodeType,
        String nodeGuid,
        String sysImageGuid,
        String fwVersion,
        String hcaType,
        String boardId,
        List<IbPort> ports,
        PciFunction pci,
        RdmaResources resources) {
    /** {@code node_type} 1: a channel adapter (mlx5 for InfiniBand and RoCE alike). */
    public static final int NODE_TYPE_CA = 1;
    /** {@code node_type} 4: an RDMA NIC (iWARP devices, eRDMA in both its iWARP and RoCE v2 modes). */
    public static final int NODE_TYPE_RNIC = 4;

    public IbDevice {
        ports = List.copyOf(ports);
    }

    /** A device whose RDMA netlink resources were not read. */
    public IbDevice(String name, int nodeTypeId, String nodeType, String nodeGuid, String sysImageGuid, String fwVersion,
                    String hcaType, String boardId, List<IbPort> ports, PciFunction pci) {
        this(name, nodeTypeId, nodeType, nodeGuid, sysImageGuid, fwVersion, hcaType, boardId, ports, pci, null);
    }

    /** This device with other ports (the agent adds what each source read to the sysfs reading). */
    public IbDevice withPorts(List<IbPort> otherPorts) {
        return new IbDevice(name, nodeTypeId, nodeType, nodeGuid, sysImageGuid, fwVersion, hcaType, boardId, otherPorts,
                pci, resources);
    }

    /** This device with {@code rdmaResources}. */
    public IbDevice withResources(RdmaResources rdmaResources) {
        return new IbDevice(name, nodeTypeId, nodeType, nodeGuid, sysImageGuid, fwVersion, hcaType, boardId, ports, pci,
                rdmaResources);
    }

    /** A device whose PCI function is not known. */
    public IbDevice(String name, int nodeTypeId, String nodeType, String nodeGuid, String sysImageGuid, String fwVersion,
                    String hcaType, String boardId, List<IbPort> ports) {
        this(name, nodeTypeId, nodeType, nodeGuid, sysImageGuid, fwVersion, hcaType, boardId, ports, null);
    }
}
