package org.ssbjca.backend.portable;

import java.net.InetAddress;
import java.net.Socket;
import javax.net.SocketFactory;
import org.ssbjca.backend.DatabaseConfig;

/**
 * A base for pgjdbc's {@code socketFactory}: pgjdbc asks only for an unconnected socket ({@link #createSocket()}) and
 * connects it itself, so the other ways of making a socket refuse.
 */
abstract class UnconnectedSocketFactory extends SocketFactory {

    /**
     * @param database where to connect
     * @param factory the socket factory pgjdbc is to use
     * @param parameters more URL parameters ({@code &name=value...}), or an empty string
     * @return the same database, its connections made through {@code factory}
     */
    static DatabaseConfig through(DatabaseConfig database, Class<? extends UnconnectedSocketFactory> factory,
            String parameters) {
        return new DatabaseConfig(database.url() + (database.url().contains("?") ? "&" : "?") + "socketFactory="
                + factory.getName() + parameters, database.user(), database.password());
    }

    @Override
    public abstract Socket createSocket();

    @Override
    public Socket createSocket(String host, int port) {
        throw new UnsupportedOperationException("pgjdbc connects the socket itself");
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) {
        throw new UnsupportedOperationException("pgjdbc connects the socket itself");
    }

    @Override
    public Socket createSocket(InetAddress host, int port) {
        throw new UnsupportedOperationException("pgjdbc connects the socket itself");
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort) {
        throw new UnsupportedOperationException("pgjdbc connects the socket itself");
    }
}
