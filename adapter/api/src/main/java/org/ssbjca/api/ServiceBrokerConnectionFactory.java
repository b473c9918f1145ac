package org.ssbjca.api;

/**
 * Creates connections to the broker. Applications obtain it by resource injection, for example
 * {@code @Resource(lookup = "java:/ssb/ConnectionFactory") ServiceBrokerConnectionFactory factory;}.
 *
 * <p>Thread safety: the factory is thread safe. The connections it returns are not; use each from one thread and
 * close it (try-with-resources) before the method that opened it returns.
 */
public interface ServiceBrokerConnectionFactory {

    /**
     * Returns a connection handle from the container's pool. When a JTA transaction is active, the connection is
     * enlisted in it; every verb then commits or rolls back with that transaction.
     *
     * @return an open connection; close it when done
     * @throws BrokerException if no connection can be obtained (database down, pool exhausted)
     */
    ServiceBrokerConnection getConnection();
}
