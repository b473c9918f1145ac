package org.ssbjca.management;

import java.util.List;
import org.ssbjca.brokers.AdapterContext;
import org.ssbjca.inbound.EndpointActivation;

/** The resource adapter as its management sees it: its context and its running activations. */
public interface ManagedAdapter extends AdapterContext {

    /** Returns the running activations. */
    List<EndpointActivation> activations();
}
