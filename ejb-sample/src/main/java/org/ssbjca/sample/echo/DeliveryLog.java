package org.ssbjca.sample.echo;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How many times each request text was delivered to {@link EchoService}, kept in memory so that it survives the
 * rollback of a delivery. For the tests and the demo.
 */
public final class DeliveryLog {

    private static final Map<String, Integer> ATTEMPTS = new ConcurrentHashMap<>();

    private DeliveryLog() {
    }

    static int record(String text) {
        return ATTEMPTS.merge(text, 1, Integer::sum);
    }

    /**
     * @param text a request text
     * @return how many deliveries of it reached the bean (committed or not)
     */
    public static int attempts(String text) {
        return ATTEMPTS.getOrDefault(text, 0);
    }
}
