# syntax=docker/dockerfile:1
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY flows ./flows
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production
# In a container the port mapping needs every interface; outside one the default is loopback.
ENV HOST=0.0.0.0
WORKDIR /app
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --chown=node:node package.json ./
# Claim documents live here (a volume shared by every instance in docker-compose.yml).
RUN mkdir -p /data/files && chown node:node /data/files
ENV FILES_DIR=/data/files
USER node
EXPOSE 3000
CMD ["node", "dist/src/main.js"]
