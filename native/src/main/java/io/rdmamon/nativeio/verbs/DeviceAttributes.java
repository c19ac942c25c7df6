package io.rdmamon.nativeio.verbs;

/**
 * The parts of {@code struct ibv_device_attr} a monitor needs.
 *
 * @param nodeGuid node GUID in host order (the struct holds it big-endian)
 */
public record DeviceAttributes(
        String firmwareVersion,
        long nodeGuid,
        long sysImageGuid,
        int vendorId,
        int vendorPartId,
        int hardwareVersion,
        int physicalPortCount) {
}
