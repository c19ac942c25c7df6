/*
 * Prints sizeof/offsetof of the C structs the jnr bindings map, plus the ioctl constants, as
 * "<struct>.<field> <offset>", "<struct> sizeof <size>" and "const <NAME> <value>" lines.
 * Compiled and run by the layout tests with the machine's gcc. The rdma-core structs are declared
 * here from libibverbs/verbs.h (fields, types and order as upstream) so that libibverbs-dev is
 * not needed.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <net/if.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <linux/types.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/dcbnl.h>
#include <sys/socket.h>
#include <sys/time.h>

enum ibv_port_state { IBV_PORT_NOP = 0 };
enum ibv_mtu { IBV_MTU_256 = 1 };
enum ibv_atomic_cap { IBV_ATOMIC_NONE };

union ibv_gid {
	uint8_t raw[16];
	struct {
		__be64 subnet_prefix;
		__be64 interface_id;
	} global;
};

struct ibv_device_attr {
	char fw_ver[64];
	__be64 node_guid;
	__be64 sys_image_guid;
	uint64_t max_mr_size;
	uint64_t page_size_cap;
	uint32_t vendor_id;
	uint32_t vendor_part_id;
	uint32_t hw_ver;
	int max_qp;
	int max_qp_wr;
	unsigned int device_cap_flags;
	int max_sge;
	int max_sge_rd;
	int max_cq;
	int max_cqe;
	int max_mr;
	int max_pd;
	int max_qp_rd_atom;
	int max_ee_rd_atom;
	int max_res_rd_atom;
	int max_qp_init_rd_atom;
	int max_ee_init_rd_atom;
	enum ibv_atomic_cap atomic_cap;
	int max_ee;
	int max_rdd;
	int max_mw;
	int max_raw_ipv6_qp;
	int max_raw_ethy_qp;
	int max_mcast_grp;
	int max_mcast_qp_attach;
	int max_total_mcast_qp_attach;
	int max_ah;
	int max_fmr;
	int max_map_per_fmr;
	int max_srq;
	int max_srq_wr;
	int max_srq_sge;
	uint16_t max_pkeys;
	uint8_t local_ca_ack_delay;
	uint8_t phys_port_cnt;
};

#define IBV_PORT_ATTR_COMPAT_FIELDS \
	enum ibv_port_state state; \
	enum ibv_mtu max_mtu; \
	enum ibv_mtu active_mtu; \
	int gid_tbl_len; \
	uint32_t port_cap_flags; \
	uint32_t max_msg_sz; \
	uint32_t bad_pkey_cntr; \
	uint32_t qkey_viol_cntr; \
	uint16_t pkey_tbl_len; \
	uint16_t lid; \
	uint16_t sm_lid; \
	uint8_t lmc; \
	uint8_t max_vl_num; \
	uint8_t sm_sl; \
	uint8_t subnet_timeout; \
	uint8_t init_type_reply; \
	uint8_t active_width; \
	uint8_t active_speed; \
	uint8_t phys_state; \
	uint8_t link_layer; \
	uint8_t flags;

/* What the exported ibv_query_port copies out (rdma-core verbs.c). */
struct _compat_ibv_port_attr {
	IBV_PORT_ATTR_COMPAT_FIELDS
};

/* The current full struct: the compat prefix, then the later additions. */
struct ibv_port_attr {
	IBV_PORT_ATTR_COMPAT_FIELDS
	uint16_t port_cap_flags2;
	uint32_t active_speed_ex;
};

struct ibv_gid_entry {
	union ibv_gid gid;
	uint32_t gid_index;
	uint32_t port_num;
	uint32_t gid_type;
	uint32_t ndev_ifindex;
};

#define SIZE(s) printf("%s sizeof %zu\n", #s, sizeof(struct s))
#define OFF(s, f) printf("%s.%s %zu\n", #s, #f, offsetof(struct s, f))
#define CONST(c) printf("const %s %lu\n", #c, (unsigned long)(c))

/* The netlink socket ABI and the DCB netlink structs (nativeio.netlink, nativeio.dcb). */
static void netlink_dcb(void)
{
	CONST(AF_NETLINK);
	CONST(SOCK_RAW);
	CONST(SOCK_CLOEXEC);
	CONST(NETLINK_ROUTE);
	CONST(NETLINK_RDMA);
	CONST(NETLINK_GENERIC);
	CONST(SOL_SOCKET);
	CONST(SO_RCVTIMEO);
	CONST(SOL_NETLINK);
	CONST(NETLINK_CAP_ACK);
	CONST(NETLINK_EXT_ACK);
	CONST(MSG_TRUNC);
	CONST(NLMSG_HDRLEN);
	CONST(NLA_HDRLEN);
	CONST(NLMSG_NOOP);
	CONST(NLMSG_ERROR);
	CONST(NLMSG_DONE);
	CONST(NLMSG_OVERRUN);
	CONST(NLM_F_REQUEST);
	CONST(NLM_F_MULTI);
	CONST(NLM_F_ACK);
	CONST(NLM_F_DUMP);
	CONST(NLM_F_CAPPED);
	CONST(NLM_F_ACK_TLVS);
	CONST(NLMSGERR_ATTR_MSG);
	CONST(NLA_F_NESTED);
	CONST(NLA_F_NET_BYTEORDER);
	SIZE(sockaddr_nl);
	SIZE(timeval);

	CONST(RTM_GETDCB);
	CONST(DCB_CMD_IEEE_GET);
	CONST(DCB_CMD_GDCBX);
	CONST(DCB_CMD_MAX);
	CONST(DCB_ATTR_IFNAME);
	CONST(DCB_ATTR_IEEE);
	CONST(DCB_ATTR_DCBX);
	CONST(DCB_ATTR_IEEE_ETS);
	CONST(DCB_ATTR_IEEE_PFC);
	CONST(DCB_ATTR_IEEE_APP_TABLE);
	CONST(DCB_ATTR_IEEE_MAXRATE);
	CONST(DCB_ATTR_DCB_BUFFER);
	CONST(DCB_ATTR_IEEE_APP);
	CONST(IEEE_8021QAZ_MAX_TCS);
	CONST(DCBX_MAX_BUFFERS);
	SIZE(dcbmsg);
	OFF(dcbmsg, cmd);
	SIZE(ieee_ets);
	OFF(ieee_ets, tc_tx_bw);
	OFF(ieee_ets, tc_rx_bw);
	OFF(ieee_ets, tc_tsa);
	OFF(ieee_ets, prio_tc);
	OFF(ieee_ets, tc_reco_bw);
	OFF(ieee_ets, tc_reco_tsa);
	OFF(ieee_ets, reco_prio_tc);
	SIZE(ieee_pfc);
	OFF(ieee_pfc, delay);
	OFF(ieee_pfc, requests);
	OFF(ieee_pfc, indications);
	SIZE(dcb_app);
	OFF(dcb_app, protocol);
	SIZE(ieee_maxrate);
	SIZE(dcbnl_buffer);
	OFF(dcbnl_buffer, buffer_size);
	OFF(dcbnl_buffer, total_size);
}

int main(void)
{
	netlink_dcb();
	CONST(SIOCETHTOOL);
	CONST(ETHTOOL_GDRVINFO);
	CONST(ETHTOOL_GSTRINGS);
	CONST(ETHTOOL_GSTATS);
	CONST(ETHTOOL_GSSET_INFO);
	CONST(ETHTOOL_GMODULEINFO);
	CONST(ETHTOOL_GMODULEEEPROM);
	CONST(ETHTOOL_GFECPARAM);
	CONST(ETH_MODULE_SFF_8636_MAX_LEN);
	CONST(ETH_SS_STATS);
	CONST(ETH_GSTRING_LEN);
	CONST(IFNAMSIZ);
	CONST(ETHTOOL_FWVERS_LEN);
	CONST(ETHTOOL_BUSINFO_LEN);
	CONST(ETHTOOL_EROMVERS_LEN);

	SIZE(ifreq);
	OFF(ifreq, ifr_name);
	OFF(ifreq, ifr_data);

	SIZE(ethtool_drvinfo);
	OFF(ethtool_drvinfo, cmd);
	OFF(ethtool_drvinfo, driver);
	OFF(ethtool_drvinfo, version);
	OFF(ethtool_drvinfo, fw_version);
	OFF(ethtool_drvinfo, bus_info);
	OFF(ethtool_drvinfo, erom_version);
	OFF(ethtool_drvinfo, reserved2);
	OFF(ethtool_drvinfo, n_priv_flags);
	OFF(ethtool_drvinfo, n_stats);
	OFF(ethtool_drvinfo, testinfo_len);
	OFF(ethtool_drvinfo, eedump_len);
	OFF(ethtool_drvinfo, regdump_len);

	SIZE(ethtool_sset_info);
	OFF(ethtool_sset_info, cmd);
	OFF(ethtool_sset_info, reserved);
	OFF(ethtool_sset_info, sset_mask);
	OFF(ethtool_sset_info, data);

	SIZE(ethtool_gstrings);
	OFF(ethtool_gstrings, cmd);
	OFF(ethtool_gstrings, string_set);
	OFF(ethtool_gstrings, len);
	OFF(ethtool_gstrings, data);

	SIZE(ethtool_modinfo);
	OFF(ethtool_modinfo, cmd);
	OFF(ethtool_modinfo, type);
	OFF(ethtool_modinfo, eeprom_len);
	OFF(ethtool_modinfo, reserved);
	SIZE(ethtool_eeprom);
	OFF(ethtool_eeprom, cmd);
	OFF(ethtool_eeprom, magic);
	OFF(ethtool_eeprom, offset);
	OFF(ethtool_eeprom, len);
	OFF(ethtool_eeprom, data);
	SIZE(ethtool_fecparam);
	OFF(ethtool_fecparam, cmd);
	OFF(ethtool_fecparam, active_fec);
	OFF(ethtool_fecparam, fec);
	OFF(ethtool_fecparam, reserved);
	SIZE(ethtool_stats);
	OFF(ethtool_stats, cmd);
	OFF(ethtool_stats, n_stats);
	OFF(ethtool_stats, data);

	SIZE(ibv_device_attr);
	OFF(ibv_device_attr, fw_ver);
	OFF(ibv_device_attr, node_guid);
	OFF(ibv_device_attr, sys_image_guid);
	OFF(ibv_device_attr, max_mr_size);
	OFF(ibv_device_attr, page_size_cap);
	OFF(ibv_device_attr, vendor_id);
	OFF(ibv_device_attr, vendor_part_id);
	OFF(ibv_device_attr, hw_ver);
	OFF(ibv_device_attr, max_qp);
	OFF(ibv_device_attr, max_qp_wr);
	OFF(ibv_device_attr, device_cap_flags);
	OFF(ibv_device_attr, max_sge);
	OFF(ibv_device_attr, max_sge_rd);
	OFF(ibv_device_attr, max_cq);
	OFF(ibv_device_attr, max_cqe);
	OFF(ibv_device_attr, max_mr);
	OFF(ibv_device_attr, max_pd);
	OFF(ibv_device_attr, max_qp_rd_atom);
	OFF(ibv_device_attr, max_ee_rd_atom);
	OFF(ibv_device_attr, max_res_rd_atom);
	OFF(ibv_device_attr, max_qp_init_rd_atom);
	OFF(ibv_device_attr, max_ee_init_rd_atom);
	OFF(ibv_device_attr, atomic_cap);
	OFF(ibv_device_attr, max_ee);
	OFF(ibv_device_attr, max_rdd);
	OFF(ibv_device_attr, max_mw);
	OFF(ibv_device_attr, max_raw_ipv6_qp);
	OFF(ibv_device_attr, max_raw_ethy_qp);
	OFF(ibv_device_attr, max_mcast_grp);
	OFF(ibv_device_attr, max_mcast_qp_attach);
	OFF(ibv_device_attr, max_total_mcast_qp_attach);
	OFF(ibv_device_attr, max_ah);
	OFF(ibv_device_attr, max_fmr);
	OFF(ibv_device_attr, max_map_per_fmr);
	OFF(ibv_device_attr, max_srq);
	OFF(ibv_device_attr, max_srq_wr);
	OFF(ibv_device_attr, max_srq_sge);
	OFF(ibv_device_attr, max_pkeys);
	OFF(ibv_device_attr, local_ca_ack_delay);
	OFF(ibv_device_attr, phys_port_cnt);

	SIZE(_compat_ibv_port_attr);
	OFF(_compat_ibv_port_attr, state);
	OFF(_compat_ibv_port_attr, max_mtu);
	OFF(_compat_ibv_port_attr, active_mtu);
	OFF(_compat_ibv_port_attr, gid_tbl_len);
	OFF(_compat_ibv_port_attr, port_cap_flags);
	OFF(_compat_ibv_port_attr, max_msg_sz);
	OFF(_compat_ibv_port_attr, bad_pkey_cntr);
	OFF(_compat_ibv_port_attr, qkey_viol_cntr);
	OFF(_compat_ibv_port_attr, pkey_tbl_len);
	OFF(_compat_ibv_port_attr, lid);
	OFF(_compat_ibv_port_attr, sm_lid);
	OFF(_compat_ibv_port_attr, lmc);
	OFF(_compat_ibv_port_attr, max_vl_num);
	OFF(_compat_ibv_port_attr, sm_sl);
	OFF(_compat_ibv_port_attr, subnet_timeout);
	OFF(_compat_ibv_port_attr, init_type_reply);
	OFF(_compat_ibv_port_attr, active_width);
	OFF(_compat_ibv_port_attr, active_speed);
	OFF(_compat_ibv_port_attr, phys_state);
	OFF(_compat_ibv_port_attr, link_layer);
	OFF(_compat_ibv_port_attr, flags);

	SIZE(ibv_port_attr);

	SIZE(ibv_gid_entry);
	OFF(ibv_gid_entry, gid);
	OFF(ibv_gid_entry, gid_index);
	OFF(ibv_gid_entry, port_num);
	OFF(ibv_gid_entry, gid_type);
	OFF(ibv_gid_entry, ndev_ifindex);
	return 0;
}
