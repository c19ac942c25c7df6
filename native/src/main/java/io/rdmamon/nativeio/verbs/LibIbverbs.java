package io.rdmamon.nativeio.verbs;

import jnr.ffi.Pointer;
import jnr.ffi.byref.IntByReference;
import jnr.ffi.types.size_t;
import jnr.ffi.types.u_int32_t;
import jnr.ffi.types.u_int8_t;

/**
 * The exported libibverbs symbols rdmamon calls (rdma-core {@code libibverbs.map.in}). The header's
 * {@code ibv_query_port} and {@code ibv_query_gid_ex} are static inlines; the symbols bound here
 * are the exported compat {@code ibv_query_port} (48-byte struct) and {@code _ibv_query_gid_ex}.
 * Public only because jnr-ffi generates its implementation in another class loader; use {@link Verbs}.
 */
public interface LibIbverbs {

    /** NULL-terminated array; NULL with errno on failure (ENOSYS: kernel without RDMA). */
    Pointer ibv_get_device_list(IntByReference numDevices);

    void ibv_free_device_list(Pointer list);

    String ibv_get_device_name(Pointer device);

    /** NULL with errno on failure. */
    Pointer ibv_open_device(Pointer device);

    int ibv_close_device(Pointer context);

    /** 0 or an errno value. */
    int ibv_query_device(Pointer context, Pointer deviceAttr);

    /** 0 or an errno value; writes the first 48 bytes of {@code struct ibv_port_attr}. */
    int ibv_query_port(Pointer context, @u_int8_t int port, Pointer portAttr);

    /** 0 or an errno value; ENODATA when the index is valid but the entry empty (rdma-core v32+). */
    int _ibv_query_gid_ex(Pointer context, @u_int32_t int port, @u_int32_t int gidIndex, Pointer entry,
                          @u_int32_t int flags, @size_t long entrySize);
}
