package org.ssbjca.brokers;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.ssbjca.backend.Broker;
import org.ssbjca.backend.BrokerDoctor;
import org.ssbjca.backend.BrokerIdentity;
import org.ssbjca.backend.BrokerState;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.FailedDelivery;
import org.ssbjca.backend.StuckTransmission;

/**
 * A SQL Server database's broker state as {@code sys.databases} shows it after a RESTORE ({@code is_broker_enabled}
 * 0) or a NEW_BROKER (another {@code service_broker_guid}), over an H2 database: the registry's broker answers the
 * doctor's {@link BrokerDoctor#brokerState()} with {@link #state} and checks it as SQL Server's does (its
 * {@link BrokerIdentity} applies); everything else is the H2 database's broker.
 */
public final class RestoredDatabaseDouble {

    /** What sys.databases answers now. */
    public final AtomicReference<BrokerState> state = new AtomicReference<>();
    private final BrokerIdentity identity = new BrokerIdentity(true);

    private RestoredDatabaseDouble(BrokerState initial) {
        state.set(initial);
    }

    /**
     * @param registry the resource adapter's registry
     * @param config the H2 database
     * @param initial what sys.databases answers first
     * @return the double
     * @throws Exception if the registry cannot be changed
     */
    public static RestoredDatabaseDouble install(BrokerRegistry registry, DatabaseConfig config, BrokerState initial)
            throws Exception {
        RestoredDatabaseDouble d = new RestoredDatabaseDouble(initial);
        BrokerRegistry.Entry h2 = registry.get(config);
        Broker broker = h2.broker();
        Broker sqlServer = (Broker) Proxy.newProxyInstance(Broker.class.getClassLoader(), new Class<?>[] {Broker.class},
                (p, m, a) -> switch (m.getName()) {
                    case "identity" -> d.identity;
                    case "doctor" -> d.doctor(broker.doctor((Connection) a[0]));
                    default -> {
                        try {
                            yield m.invoke(broker, a);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    }
                });
        java.lang.reflect.Field f = BrokerRegistry.class.getDeclaredField("brokers");
        f.setAccessible(true);
        @SuppressWarnings("unchecked")
        Map<DatabaseConfig, BrokerRegistry.Entry> brokers = (Map<DatabaseConfig, BrokerRegistry.Entry>) f.get(registry);
        brokers.put(config, new BrokerRegistry.Entry(registry, h2.source(), sqlServer));
        return d;
    }

    private BrokerDoctor doctor(BrokerDoctor h2) {
        return new BrokerDoctor() {
            @Override
            public BrokerState brokerState() {
                return state.get();
            }

            @Override
            public List<StuckTransmission> stuckTransmissions(int max) {
                return h2.stuckTransmissions(max);
            }

            @Override
            public long stuckTransmissionCount() {
                return h2.stuckTransmissionCount();
            }

            @Override
            public FailedDelivery lastFailedDelivery(String queue) {
                return h2.lastFailedDelivery(queue);
            }

            @Override
            public void enableQueue(String queue) {
                h2.enableQueue(queue);
            }
        };
    }
}
