package io.rdmamon.agent.probe.standin;

import io.rdmamon.agent.probe.PerftestCommandLine;
import io.rdmamon.agent.probe.PerftestReportFormat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A perftest {@code ib_write_bw} stand-in for hosts without RDMA: the same argv, the same TCP
 * rendezvous (the server listens on {@code -p} on loopback and accepts exactly one client, the
 * client connects to {@code SERVER:-p}), perftest's printed output and exit codes, and a client
 * that runs for {@code -D} seconds and reports the bandwidth it is told to.
 *
 * <p>Environment: {@code STANDIN_GBITS} the average Gb/s the client reports (default 90);
 * {@code STANDIN_GRANDCHILD_SLEEP} when set, a {@code sleep <value>} child is started first, to
 * prove a kill reaches the whole process group.
 */
public final class StandInPerftest {
    private StandInPerftest() {
    }

    public static void main(String[] args) throws Exception {
        PerftestCommandLine options = PerftestCommandLine.parse(List.of(args));
        String grandchild = System.getenv("STANDIN_GRANDCHILD_SLEEP");
        if (grandchild != null) {
            new ProcessBuilder("sleep", grandchild).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        }
        int exit = options.isServer() ? serve(options) : connect(options,
                Double.parseDouble(System.getenv().getOrDefault("STANDIN_GBITS", "90")));
        System.out.flush();
        System.exit(exit);
    }

    private static int serve(PerftestCommandLine options) throws IOException {
        ServerSocket listener = new ServerSocket();
        try {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), options.tcpPort()), 1);
        } catch (IOException e) {
            PerftestReportFormat.couldNotListen(options.tcpPort()).forEach(System.err::println);
            return 1;
        }
        PerftestReportFormat.waitingForClient().forEach(System.out::println);
        try (Socket client = listener.accept()) {
            listener.close(); // perftest takes one client and stops listening
            BufferedReader in = new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
            PrintWriter out = new PrintWriter(client.getOutputStream(), true, StandardCharsets.UTF_8);
            String hello = in.readLine();
            out.println("server " + options.device());
            print(PerftestReportFormat.banner(options, "Ethernet", options.gidIndex()));
            print(PerftestReportFormat.addresses(0x0146, null, 0x009b, null));
            String[] report = String.valueOf(in.readLine()).split(" ");
            if (hello == null || report.length != 2) {
                System.err.println(" Failed to exchange data between server and clients");
                return 1;
            }
            print(PerftestReportFormat.gbitsTable(options.sizeBytes(), Long.parseLong(report[1]), 0,
                    Double.parseDouble(report[0])));
            return 0;
        }
    }

    private static int connect(PerftestCommandLine options, double gbits) throws Exception {
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress(options.server(), options.tcpPort()), 2_000);
        } catch (IOException e) {
            PerftestReportFormat.couldNotConnect(options.server(), options.tcpPort()).forEach(System.err::println);
            return 1;
        }
        try (socket) {
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            PrintWriter out = new PrintWriter(socket.getOutputStream(), true, StandardCharsets.UTF_8);
            out.println("client " + options.device());
            in.readLine();
            print(PerftestReportFormat.banner(options, "Ethernet", options.gidIndex()));
            print(PerftestReportFormat.addresses(0x009b, null, 0x0146, null));
            Thread.sleep(options.durationSeconds() * 1000L);
            long iterations = (long) (gbits * 1e9 / 8 * options.durationSeconds() / options.sizeBytes());
            print(PerftestReportFormat.gbitsTable(options.sizeBytes(), iterations, 0, gbits));
            out.println(gbits + " " + iterations);
            return 0;
        }
    }

    private static void print(List<String> lines) {
        lines.forEach(System.out::println);
    }
}
