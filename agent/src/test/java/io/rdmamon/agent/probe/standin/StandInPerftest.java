package io.rdmamon.agent.probe.standin;

import io.rdmamon.agent.probe.PerftestCommandLine;
import io.rdmamon.agent.probe.PerftestReportFormat;
import io.rdmamon.protocol.probe.PerftestTest;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A perftest {@code ib_write_bw} and {@code ib_send_lat} stand-in for hosts without RDMA (its first argument says
 * which, the rest is the real binary's argv): the same TCP rendezvous (the server listens on {@code -p} on loopback
 * and accepts exactly one client, the client connects to {@code SERVER:-p}), perftest's printed output and exit
 * codes, a bandwidth client that runs for {@code -D} seconds and reports the bandwidth it is told to, and a latency
 * pair that print the round trips they are told to.
 *
 * <p>Environment: {@code STANDIN_GBITS} the average Gb/s the client reports (default 90);
 * {@code STANDIN_HALF_RTT_USEC} comma-separated values ib_send_lat prints for its exchanges (half round trips, µs),
 * repeated over the {@code -n} minus one exchanges (default 1.5); {@code STANDIN_GRANDCHILD_SLEEP} when set, a
 * {@code sleep <value>} child is started first, to prove a kill reaches the whole process group;
 * {@code STANDIN_ESCAPED_LINE_CHARS} when set, a first output line of an escape sequence and that many characters.
 */
public final class StandInPerftest {
    private StandInPerftest() {
    }

    public static void main(String[] args) throws Exception {
        PerftestTest test = PerftestTest.fromWire(args[0]);
        PerftestCommandLine options = PerftestCommandLine.parse(List.of(args).subList(1, args.length));
        String grandchild = System.getenv("STANDIN_GRANDCHILD_SLEEP");
        if (grandchild != null) {
            new ProcessBuilder("sleep", grandchild).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        }
        String noise = System.getenv("STANDIN_ESCAPED_LINE_CHARS");
        if (noise != null) {
            // a colouring perftest build printing one endless line: host text the agent must make fit the wire
            System.out.println("\u001b[31m" + "x".repeat(Integer.parseInt(noise)));
        }
        int exit = options.isServer() ? serve(test, options) : connect(test, options,
                Double.parseDouble(System.getenv().getOrDefault("STANDIN_GBITS", "90")));
        System.out.flush();
        System.exit(exit);
    }

    private static int serve(PerftestTest test, PerftestCommandLine options) throws IOException {
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
            print(PerftestReportFormat.banner(test, options, "Ethernet", options.gidIndex()));
            print(PerftestReportFormat.addresses(0x0146, null, 0x009b, null));
            if (test.latency()) {
                // the ping-pong: both sides time it, and print alike
                if (hello == null || in.readLine() == null) {
                    System.err.println(" Failed to exchange data between server and clients");
                    return 1;
                }
                print(latencyTable(options));
                return 0;
            }
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

    private static int connect(PerftestTest test, PerftestCommandLine options, double gbits) throws Exception {
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
            print(PerftestReportFormat.banner(test, options, "Ethernet", options.gidIndex()));
            print(PerftestReportFormat.addresses(0x009b, null, 0x0146, null));
            if (test.latency()) {
                print(latencyTable(options));
                out.println("done");
                return 0;
            }
            Thread.sleep(options.durationSeconds() * 1000L);
            long iterations = (long) (gbits * 1e9 / 8 * options.durationSeconds() / options.sizeBytes());
            print(PerftestReportFormat.gbitsTable(options.sizeBytes(), iterations, 0, gbits));
            out.println(gbits + " " + iterations);
            return 0;
        }
    }

    /** The {@code STANDIN_HALF_RTT_USEC} values, repeated over the measured exchanges. */
    private static List<String> latencyTable(PerftestCommandLine options) {
        String[] values = System.getenv().getOrDefault("STANDIN_HALF_RTT_USEC", "1.5").split(",");
        List<Double> halves = new ArrayList<>();
        for (int i = 0; i < options.iterations() - 1; i++) {
            halves.add(Double.parseDouble(values[i % values.length]));
        }
        return PerftestReportFormat.latencyTable(options.sizeBytes(), options.iterations(), halves);
    }

    private static void print(List<String> lines) {
        lines.forEach(System.out::println);
    }
}
