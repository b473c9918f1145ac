package org.ssbjca.backend.portable;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ssbjca.backend.DatabaseConfig;

/**
 * A TCP proxy in front of a PostgreSQL server that can turn the connections it carries into half-open ones, as a
 * network failure or a failover leaves them: {@link #blackHole()} stops forwarding their bytes in both directions and
 * keeps their sockets open, so that neither end sees a FIN or RST. Connections made afterwards are forwarded.
 */
final class BlackHoleProxy implements AutoCloseable {

    private static final Pattern HOST_PORT = Pattern.compile("//([^/:]+):(\\d+)/");

    private final String host;
    private final int port;
    private final ServerSocket server;
    private final List<Carried> carried = new CopyOnWriteArrayList<>();
    private final AtomicInteger accepted = new AtomicInteger();

    /** @param target the database whose server the proxy forwards to */
    BlackHoleProxy(DatabaseConfig target) throws IOException {
        Matcher m = HOST_PORT.matcher(target.url());
        if (!m.find()) {
            throw new IllegalArgumentException("no host and port in " + target.url());
        }
        host = m.group(1);
        port = Integer.parseInt(m.group(2));
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accepting = new Thread(this::accept, "proxy accepting");
        accepting.setDaemon(true);
        accepting.start();
    }

    /**
     * @param database a database of the target server
     * @return the same database, reached through the proxy
     */
    DatabaseConfig through(DatabaseConfig database) {
        String url = HOST_PORT.matcher(database.url())
                .replaceFirst("//" + server.getInetAddress().getHostAddress() + ":" + server.getLocalPort() + "/");
        return new DatabaseConfig(url, database.user(), database.password());
    }

    /** @return the connections accepted so far */
    int accepted() {
        return accepted.get();
    }

    /** Stops forwarding the bytes of every connection carried now, for good, and leaves their sockets open. */
    void blackHole() {
        carried.forEach(c -> c.silent.set(true));
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket upstream;
                try {
                    upstream = new Socket(host, port);
                } catch (IOException e) {
                    client.close();
                    throw e;
                }
                Carried c = new Carried(client, upstream);
                carried.add(c);
                accepted.incrementAndGet();
                pump(client, upstream, c.silent);
                pump(upstream, client, c.silent);
            } catch (IOException e) {
                // closed
            }
        }
    }

    /** Copies from one socket to the other; once silent, reads and drops, so that the writer never blocks. */
    private static void pump(Socket from, Socket to, AtomicBoolean silent) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    if (!silent.get()) {
                        out.write(buffer, 0, n);
                        out.flush();
                    }
                }
                if (!silent.get()) {
                    to.shutdownOutput();
                }
            } catch (IOException e) {
                // closed
            }
        }, "proxy pump");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Carried c : carried) {
            c.client.close();
            c.upstream.close();
        }
    }

    /** One connection through the proxy. */
    private record Carried(Socket client, Socket upstream, AtomicBoolean silent) {
        Carried(Socket client, Socket upstream) {
            this(client, upstream, new AtomicBoolean());
        }
    }
}
