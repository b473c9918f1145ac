package org.ssbjca.fakes;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on 127.0.0.1 between the adapter and a database server, for fault tests: {@link #cut()} drops every
 * connection at once (a network failure, the database still up), and every new connection waits
 * {@code connectDelayMillis} before it is forwarded, which makes opening a connection slow enough that concurrent
 * opens overlap and can be counted ({@link #maxConcurrentOpens()}).
 */
public final class TcpProxy implements AutoCloseable {

    private final ServerSocket server;
    private final int targetPort;
    private final long connectDelayMillis;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final AtomicInteger opening = new AtomicInteger();
    private final AtomicInteger maxOpening = new AtomicInteger();
    private final AtomicInteger accepted = new AtomicInteger();
    private volatile boolean closed;

    /**
     * @param targetPort the database server's port on 127.0.0.1
     * @param connectDelayMillis how long each new connection waits before it is forwarded
     * @throws IOException if no port can be opened
     */
    public TcpProxy(int targetPort, long connectDelayMillis) throws IOException {
        this.targetPort = targetPort;
        this.connectDelayMillis = connectDelayMillis;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "tcp-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** @return the port to connect to */
    public int port() {
        return server.getLocalPort();
    }

    /**
     * Closes every connection that goes through the proxy; new ones are still accepted. One that opens while the cut
     * runs may stay open, and stays known to the proxy for a later cut.
     */
    public void cut() {
        for (Socket s : sockets) {
            closeQuietly(s);
            sockets.remove(s);
        }
    }

    /** @return the most connections that were being opened at the same time, since {@link #resetCounts()} */
    public int maxConcurrentOpens() {
        return maxOpening.get();
    }

    /** @return connections accepted since {@link #resetCounts()} */
    public int accepted() {
        return accepted.get();
    }

    /** Forgets the counts. */
    public void resetCounts() {
        maxOpening.set(0);
        accepted.set(0);
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = server.accept();
                accepted.incrementAndGet();
                Thread t = new Thread(() -> open(client), "tcp-proxy-open");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                if (!closed) {
                    continue;
                }
                return;
            }
        }
    }

    private void open(Socket client) {
        maxOpening.accumulateAndGet(opening.incrementAndGet(), Math::max);
        try {
            Thread.sleep(connectDelayMillis);
            Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
            sockets.add(client);
            sockets.add(upstream);
            pump(client, upstream);
            pump(upstream, client);
        } catch (IOException | InterruptedException e) {
            closeQuietly(client);
        } finally {
            opening.decrementAndGet();
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // cut, or closed by one side
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                sockets.remove(from);
                sockets.remove(to);
            }
        }, "tcp-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(server);
        cut();
    }

    private static void closeQuietly(ServerSocket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
