package org.ssbjca.backend.portable;

import java.net.InetAddress;
import java.net.Socket;
import javax.net.SocketFactory;

/**
 * A base for pgjdbc's {@code socketFactory}: pgjdbc asks only for an unconnected socket ({@link #createSocket()}) and
 * connects it itself, so the other ways of making a socket refuse.
 */
abstract class UnconnectedSocketFactory extends SocketFactory {

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
