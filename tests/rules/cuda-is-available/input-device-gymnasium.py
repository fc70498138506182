# devport-test: rules=all
"""Gymnasium's vector environments return float64 rewards (MuJoCo's observations are float64 too):
cleanrl's `torch.tensor(reward).to(device)` moves them where the check picked."""
import gymnasium as gym
import torch


def rollout(envs, agent, steps):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")  # expect: cuda-is-available:unsafe -- float64 rewards on the device
    rewards = []
    for _ in range(steps):
        _, reward, _, _, _ = envs.step(agent.act())
        rewards.append(torch.tensor(reward).to(device))
    return rewards


def rollout_float32(envs, agent, steps):
    # tianshou's way: what the environments return is made float32 on the way.
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")  # expect: cuda-is-available:safe -- float32 tensors
    rewards = []
    for _ in range(steps):
        obs, reward, _, _, _ = envs.step(agent.act())
        rewards.append(torch.as_tensor(reward, dtype=torch.float32, device=device))
        agent.observe(torch.Tensor(obs).to(device))
    return rewards
