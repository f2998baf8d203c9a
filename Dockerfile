# Runs the reference service. Build: docker build -t voxpipe .  Run: docker run -p 8080:8080 voxpipe
FROM node:20-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production PORT=8080
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/web ./web
COPY package.json ./
VOLUME /data
EXPOSE 8080
CMD ["node", "dist/cli/main.js", "serve", "--host", "0.0.0.0", "--data", "/data"]
