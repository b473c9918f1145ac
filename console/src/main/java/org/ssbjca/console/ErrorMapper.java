package org.ssbjca.console;

import jakarta.json.Json;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** Errors as {@code {"error": "..."}} with their status: 400 for a refused value, 404 for an unknown activation. */
@Provider
public class ErrorMapper implements ExceptionMapper<WebApplicationException> {

    @Override
    public Response toResponse(WebApplicationException e) {
        String message = e.getMessage() == null ? "" : e.getMessage();
        return Response.status(e.getResponse().getStatus()).type(MediaType.APPLICATION_JSON)
                .entity(Json.createObjectBuilder().add("error", message).build()).build();
    }
}
