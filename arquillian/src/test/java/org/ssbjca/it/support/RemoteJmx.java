package org.ssbjca.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * A JMX connection to a running WildFly over its management port, the way JConsole connects
 * ({@code service:jmx:remote+http://127.0.0.1:9990}). The protocol comes from the server's own
 * {@code bin/client/jboss-cli-client.jar}, loaded in a class loader of its own so that its libraries never meet the
 * test's. A client on the server's machine is authenticated as the local user, without a password.
 */
public final class RemoteJmx implements AutoCloseable {

    private static URLClassLoader protocolLoader;

    private final JMXConnector connector;

    private RemoteJmx(JMXConnector connector) {
        this.connector = connector;
    }

    /**
     * @return a connection to the default (suite) container, on its management port
     * @throws IOException if the server does not answer
     */
    public static RemoteJmx connect() throws IOException {
        return connect(Integer.getInteger("ssb.it.managementPort", 9990));
    }

    /**
     * @param managementPort 9990 for the default container
     * @return an open connection
     * @throws IOException if the server does not answer
     */
    public static RemoteJmx connect(int managementPort) throws IOException {
        JMXServiceURL url = new JMXServiceURL("service:jmx:remote+http://127.0.0.1:" + managementPort);
        Map<String, Object> env = Map.of(JMXConnectorFactory.PROTOCOL_PROVIDER_CLASS_LOADER, loader());
        Thread t = Thread.currentThread();
        ClassLoader previous = t.getContextClassLoader();
        t.setContextClassLoader(loader());
        try {
            return new RemoteJmx(JMXConnectorFactory.connect(url, env));
        } finally {
            t.setContextClassLoader(previous);
        }
    }

    /** @return the server's MBeans */
    public MBeanServerConnection server() throws IOException {
        return connector.getMBeanServerConnection();
    }

    @Override
    public void close() throws IOException {
        connector.close();
    }

    private static synchronized ClassLoader loader() {
        if (protocolLoader == null) {
            Path jar = Path.of(System.getProperty("jboss.home"), "bin", "client", "jboss-cli-client.jar");
            if (!Files.isRegularFile(jar)) {
                throw new IllegalStateException(jar + " is missing: the build unpacks WildFly before the tests");
            }
            try {
                protocolLoader = new URLClassLoader(new URL[] {jar.toUri().toURL()},
                        RemoteJmx.class.getClassLoader());
            } catch (MalformedURLException e) {
                throw new UncheckedIOException(e);
            }
        }
        return protocolLoader;
    }
}
