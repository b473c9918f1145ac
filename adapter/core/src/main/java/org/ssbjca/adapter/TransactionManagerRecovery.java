package org.ssbjca.adapter;

import org.ssbjca.brokers.BrokerRegistry;
import java.util.stream.Collectors;
import org.ssbjca.adapter.narayana.NarayanaRecovery;
import org.ssbjca.support.AdapterLog;

/**
 * Joins the recovery of the server's transaction manager where the adapter knows how to, beyond what the connector
 * contract gives: WildFly's Narayana ({@link NarayanaRecovery}). Elsewhere nothing is registered and the
 * transaction manager recovers through {@code ResourceAdapter.getXAResources} and the connection factories alone.
 */
final class TransactionManagerRecovery {

    private static final AdapterLog LOG = AdapterLog.of(TransactionManagerRecovery.class);
    private static final String[] NARAYANA_CLASSES = {
        "com.arjuna.ats.internal.jta.recovery.arjunacore.XARecoveryModule", "org.jboss.tm.XAResourceWrapper"};

    private TransactionManagerRecovery() {
    }

    /**
     * Returns what to close when the adapter stops, or null when nothing was registered.
     *
     * @param registry the adapter's databases
     */
    static AutoCloseable start(BrokerRegistry registry) {
        if (!visible(NARAYANA_CLASSES)) {
            return null;
        }
        NarayanaRecovery recovery = NarayanaRecovery.start(() -> registry.entries().stream()
                .collect(Collectors.toMap(e -> NarayanaRecovery.name(e.source().config()),
                        BrokerRegistry.Entry::recoveryResource, (a, b) -> a)));
        if (recovery != null) {
            registry.nameBranches((database, resource) ->
                    NarayanaRecovery.named(NarayanaRecovery.name(database), resource));
        }
        return recovery;
    }

    /**
     * Removes the registration. Never throws: a removal that fails is logged ({@code SSBJCA0210}), so that the rest
     * of the adapter's stop (its databases, drivers and caches) still runs.
     *
     * @param registration what {@link #start} returned
     */
    static void stop(AutoCloseable registration) {
        if (registration != null) {
            try {
                registration.close();
            } catch (Exception | LinkageError e) {
                LOG.recoveryRegistrationNotRemoved(e, registration, String.valueOf(e));
            }
        }
    }

    private static boolean visible(String... classNames) {
        for (String name : classNames) {
            try {
                Class.forName(name, false, TransactionManagerRecovery.class.getClassLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                return false;
            }
        }
        return true;
    }
}
