package io.rdmamon.nativeio.verbs;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.rdmamon.nativeio.Errno;
import io.rdmamon.nativeio.NativeSupport;
import io.rdmamon.nativeio.verbs.VerbsAbi.CompatIbvPortAttr;
import io.rdmamon.nativeio.verbs.VerbsAbi.IbvDeviceAttr;
import io.rdmamon.nativeio.verbs.VerbsAbi.IbvGidEntry;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import jnr.ffi.Struct;
import jnr.ffi.byref.IntByReference;

/**
 * {@link Verbs} over the system's {@code libibverbs.so.1} (rdma-core), bound lazily on first use
 * and once per instance. Every query lists the devices, opens the one asked for while the list
 * is alive, and closes and frees everything before returning, so no native handle outlives a call.
 * Thread safe: libibverbs' calls are, and the binding is guarded.
 */
public final class JnrVerbs implements Verbs {

    /** The runtime soname (the unversioned {@code libibverbs.so} exists only with libibverbs-dev). */
    public static final String LIBRARY = "libibverbs.so.1";

    private static final String UNAVAILABLE = "verbs unavailable: ";

    private final String libraryName;
    private final Object bindLock = new Object();
    private Binding binding;

    public JnrVerbs() {
        this(LIBRARY);
    }

    /** Binds {@code libraryName} instead of {@link #LIBRARY} (tests use a name that does not exist). */
    JnrVerbs(String libraryName) {
        this.libraryName = libraryName;
    }

    @Override
    public VerbsAvailability availability() {
        try {
            int devices = withDeviceList((library, list) -> list.size());
            return new VerbsAvailability(true, "verbs available: " + devices + " device(s) listed by " + libraryName);
        } catch (VerbsException e) {
            return new VerbsAvailability(false, e.getMessage());
        } catch (RuntimeException | LinkageError e) {
            return new VerbsAvailability(false, UNAVAILABLE + oneLine(e));
        }
    }

    @Override
    public List<String> deviceNames() throws VerbsException {
        return withDeviceList((library, list) -> {
            List<String> names = new ArrayList<>(list.size());
            for (Pointer device : list) {
                names.add(library.ibv_get_device_name(device));
            }
            return List.copyOf(names);
        });
    }

    @Override
    public DeviceAttributes queryDevice(String device) throws VerbsException {
        return withOpenDevice(device, (library, context) -> {
            IbvDeviceAttr attr = zeroed(new IbvDeviceAttr(Runtime.getSystemRuntime()), 0);
            check(library.ibv_query_device(context, Struct.getMemory(attr)), "ibv_query_device", device);
            return deviceAttributes(attr);
        });
    }

    @Override
    public PortAttributes queryPort(String device, int port) throws VerbsException {
        checkPort(device, port);
        return withOpenDevice(device, (library, context) -> {
            CompatIbvPortAttr attr = new CompatIbvPortAttr(Runtime.getSystemRuntime());
            // The compat call writes 48 bytes; the buffer is the full current struct size and zeroed
            // so that no later field is ever read uninitialised.
            zeroed(attr, VerbsAbi.IBV_PORT_ATTR_SIZE - Struct.size(attr));
            check(library.ibv_query_port(context, port, Struct.getMemory(attr)),
                    "ibv_query_port", device + " port " + port);
            return portAttributes(attr);
        });
    }

    @Override
    public GidEntryAttributes queryGid(String device, int port, int index) throws VerbsException {
        checkPort(device, port);
        if (index < 0) {
            throw new VerbsException("GID index " + index + " of " + device + " port " + port + " is negative",
                    Errno.EINVAL);
        }
        return withOpenDevice(device, (library, context) -> {
            IbvGidEntry entry = zeroed(new IbvGidEntry(Runtime.getSystemRuntime()), 0);
            int rc;
            try {
                rc = library._ibv_query_gid_ex(context, port, index, Struct.getMemory(entry), 0,
                        VerbsAbi.IBV_GID_ENTRY_SIZE);
            } catch (UnsatisfiedLinkError e) {
                throw new VerbsException("_ibv_query_gid_ex is not in " + libraryName
                        + " (rdma-core older than v32): " + oneLine(e), 0);
            }
            if (rc == Errno.ENODATA) {
                return null;
            }
            check(rc, "_ibv_query_gid_ex", device + " port " + port + " index " + index);
            return gidEntry(entry);
        });
    }

    static DeviceAttributes deviceAttributes(IbvDeviceAttr attr) {
        return new DeviceAttributes(attr.fw_ver.get(), bigEndian64(attr, attr.node_guid),
                bigEndian64(attr, attr.sys_image_guid), (int) attr.vendor_id.get(), (int) attr.vendor_part_id.get(),
                (int) attr.hw_ver.get(), attr.phys_port_cnt.get());
    }

    static PortAttributes portAttributes(CompatIbvPortAttr attr) {
        return new PortAttributes(attr.state.get(), attr.max_mtu.get(), attr.active_mtu.get(), attr.gid_tbl_len.get(),
                attr.port_cap_flags.get(), attr.max_msg_sz.get(), attr.bad_pkey_cntr.get(), attr.qkey_viol_cntr.get(),
                attr.pkey_tbl_len.get(), attr.lid.get(), attr.sm_lid.get(), attr.lmc.get(), attr.max_vl_num.get(),
                attr.sm_sl.get(), attr.subnet_timeout.get(), attr.init_type_reply.get(), attr.active_width.get(),
                attr.active_speed.get(), attr.phys_state.get(), attr.link_layer.get(), attr.flags.get());
    }

    static GidEntryAttributes gidEntry(IbvGidEntry entry) {
        byte[] gid = new byte[VerbsAbi.IBV_GID_RAW_LEN];
        Struct.getMemory(entry).get(entry.gid[0].offset(), gid, 0, gid.length);
        return new GidEntryAttributes(gid, (int) entry.gid_index.get(), (int) entry.port_num.get(),
                (int) entry.gid_type.get(), (int) entry.ndev_ifindex.get());
    }

    /** A {@code __be64} field as a number: the struct keeps the GUID in network byte order. */
    private static long bigEndian64(Struct struct, Struct.NumberField field) {
        byte[] bytes = new byte[Long.BYTES];
        Struct.getMemory(struct).get(field.offset(), bytes, 0, bytes.length);
        return ByteBuffer.wrap(bytes).getLong();
    }

    @FunctionalInterface
    private interface DeviceListCall<T> {
        T apply(LibIbverbs library, List<Pointer> devices) throws VerbsException;
    }

    @FunctionalInterface
    private interface ContextCall<T> {
        T apply(LibIbverbs library, Pointer context) throws VerbsException;
    }

    private <T> T withDeviceList(DeviceListCall<T> call) throws VerbsException {
        LibIbverbs library = library();
        IntByReference count = new IntByReference();
        Pointer list = library.ibv_get_device_list(count);
        if (list == null) {
            int errno = Errno.last();
            throw new VerbsException(UNAVAILABLE + "ibv_get_device_list failed: " + Errno.describe(errno), errno);
        }
        try {
            int pointerSize = Runtime.getSystemRuntime().addressSize();
            List<Pointer> devices = new ArrayList<>();
            for (int i = 0; i < count.intValue(); i++) {
                devices.add(list.getPointer((long) i * pointerSize));
            }
            return call.apply(library, devices);
        } finally {
            library.ibv_free_device_list(list);
        }
    }

    private <T> T withOpenDevice(String device, ContextCall<T> call) throws VerbsException {
        return withDeviceList((library, devices) -> {
            List<String> names = new ArrayList<>(devices.size());
            for (Pointer candidate : devices) {
                String name = library.ibv_get_device_name(candidate);
                names.add(name);
                if (name.equals(device)) {
                    Pointer context = library.ibv_open_device(candidate);
                    if (context == null) {
                        int errno = Errno.last();
                        throw new VerbsException("ibv_open_device(" + device + ") failed: " + Errno.describe(errno),
                                errno);
                    }
                    try {
                        return call.apply(library, context);
                    } finally {
                        library.ibv_close_device(context);
                    }
                }
            }
            throw new VerbsException("no RDMA device '" + device + "' (libibverbs lists "
                    + (names.isEmpty() ? "none" : String.join(", ", names)) + ")", Errno.ENODEV);
        });
    }

    private LibIbverbs library() throws VerbsException {
        Binding bound;
        synchronized (bindLock) {
            if (binding == null) {
                binding = bind(libraryName);
            }
            bound = binding;
        }
        if (bound.library() == null) {
            throw new VerbsException(UNAVAILABLE + bound.failure(), 0);
        }
        return bound.library();
    }

    /** Either the bound library or why it could not be bound; computed once. */
    private record Binding(LibIbverbs library, String failure) {
    }

    private static Binding bind(String libraryName) {
        Optional<String> unsupported = NativeSupport.unsupportedReason();
        if (unsupported.isPresent()) {
            return new Binding(null, unsupported.get());
        }
        try {
            return new Binding(LibraryLoader.create(LibIbverbs.class).failImmediately().load(libraryName), null);
        } catch (LinkageError | RuntimeException e) {
            // jnr appends the whole search path list after the loader's own reason; keep the reason.
            String reason = oneLine(e).split(" Library names ")[0];
            return new Binding(null, "cannot load " + libraryName + ": " + reason);
        }
    }

    private static void checkPort(String device, int port) throws VerbsException {
        if (port < 1 || port > 255) {
            throw new VerbsException("port " + port + " of " + device + " is outside 1..255", Errno.EINVAL);
        }
    }

    /** libibverbs query calls return 0 or an errno value (older providers: -1 with errno set). */
    private static void check(int rc, String call, String target) throws VerbsException {
        if (rc != 0) {
            int errno = rc < 0 ? Errno.last() : rc;
            throw new VerbsException(call + "(" + target + ") failed: " + Errno.describe(errno), errno);
        }
    }

    private static <S extends Struct> S zeroed(S struct, int extraBytes) {
        struct.useMemory(Memory.allocateDirect(struct.getRuntime(), Struct.size(struct) + extraBytes, true));
        return struct;
    }

    private static String oneLine(Throwable e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return message.replaceAll("\\s*\\R\\s*", " ").strip();
    }
}
