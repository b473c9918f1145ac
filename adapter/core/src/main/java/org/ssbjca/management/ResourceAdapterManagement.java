package org.ssbjca.management;

import jakarta.resource.spi.Connector;
import java.util.List;
import java.util.stream.Collectors;
import javax.management.ObjectName;
import org.ssbjca.brokers.BrokerRegistry;
import org.ssbjca.inbound.EndpointActivation;

/** The {@link ResourceAdapterMXBean}: reads the adapter's state on each call. */
final class ResourceAdapterManagement implements ResourceAdapterMXBean {

    private final ManagedAdapter ra;
    private final MBeans mbeans;

    ResourceAdapterManagement(ManagedAdapter ra, MBeans mbeans) {
        this.ra = ra;
        this.mbeans = mbeans;
    }

    @Override
    public String getVersion() {
        Connector connector = ra.getClass().getAnnotation(Connector.class);
        return connector == null ? "unknown" : connector.version();
    }

    @Override
    public String getDefaultDatabase() {
        try {
            return ra.defaultDatabase().toString();
        } catch (IllegalArgumentException e) {
            return "invalid: " + e.getMessage();
        }
    }

    @Override
    public List<BackendInfo> getBackends() {
        BrokerRegistry registry = ra.registry();
        if (registry == null) {
            return List.of();
        }
        return registry.entries().stream()
                .map(e -> e.source().config())
                .map(c -> new BackendInfo(c.kind().name(), c.toString()))
                .sorted((a, b) -> a.getDatabase().compareTo(b.getDatabase()))
                .collect(Collectors.toList());
    }

    @Override
    public List<String> getActivations() {
        return ra.activations().stream().map(EndpointActivation::name).sorted().collect(Collectors.toList());
    }

    @Override
    public List<ObjectName> getActivationObjectNames() {
        return ra.activations().stream().map(mbeans::nameOf).filter(n -> n != null).sorted()
                .collect(Collectors.toList());
    }
}
